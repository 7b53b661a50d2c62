package com.bloceclat.game.live;

import jakarta.enterprise.context.ApplicationScoped;

import com.bloceclat.common.security.ClientKey;

import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.http.HttpConnection;

/**
 * At each socket's upgrade, keeps who the caller is for the per-client limits ({@link ClientKey}: a player by token
 * subject, a guest by address, the one a trusted proxy forwards, as REST calls are keyed) in the connection's user
 * data, where {@link MatchSocket} counts the client's sockets. Only the upgrade's HTTP request has the forwarded
 * address; the socket itself knows only the proxy's.
 */
@ApplicationScoped
public class SocketClients implements HttpUpgradeCheck {

    private static final UserData.TypedKey<String> CLIENT = UserData.TypedKey.forString("bloc.client");

    private static final UserData.TypedKey<HttpConnection> TCP = new UserData.TypedKey<>("bloc.tcp");

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext context) {
        return context.securityIdentity().map(identity -> {
            context.userData().put(CLIENT, ClientKey.of(identity, context.httpRequest()));
            context.userData().put(TCP, context.httpRequest().connection());
            return CheckResult.permitUpgradeSync();
        });
    }

    /**
     * Closes the socket's TCP connection at once, without the WebSocket closing handshake: for a client that takes no
     * frame, whose close frame waits behind the frames it has not taken (Vert.x starts its own closing timeout only
     * once that frame is written).
     */
    static Future<Void> drop(WebSocketConnection connection) {
        HttpConnection tcp = connection.userData().get(TCP);
        return tcp == null ? Future.succeededFuture() : tcp.close();
    }

    /** The connection's client, as its upgrade was keyed. */
    static String of(WebSocketConnection connection) {
        String client = connection.userData().get(CLIENT);
        return client == null ? ClientKey.ofAddress(null) : client;
    }
}
