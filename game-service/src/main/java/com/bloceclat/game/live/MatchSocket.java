package com.bloceclat.game.live;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;

import org.jboss.logging.Logger;

import com.bloceclat.common.security.Caller;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.rest.GameResource;
import com.bloceclat.game.service.GameService;
import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.MatchView;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;

/**
 * One socket per player and match: {@code /api/matches/{id}/live}. A logged-in player sends their bearer token with
 * the upgrade request; a guest adds {@code ?gameToken=...} (or header {@code X-Game-Token}). On opening, and on every {@code sync}, the whole state is
 * sent, so reconnecting resumes from the current state. Changes of either game arrive as {@code update} frames,
 * whichever replica made them (see {@link LiveUpdates}).
 */
@WebSocket(path = "/api/matches/{id}/live")
public class MatchSocket {

    private static final Logger LOG = Logger.getLogger(MatchSocket.class);

    /** Who is on each open connection of this replica. */
    static final Map<String, Seat> SEATS = new ConcurrentHashMap<>();

    record Seat(UUID matchId, UUID gameId, Requester requester, RateLimit limit) {
    }

    @Inject
    WebSocketConnection connection;

    @Inject
    SecurityIdentity identity;

    @Inject
    MatchService matches;

    @Inject
    GameService games;

    @Inject
    GameConfig.Live config;

    @OnOpen
    public String open() {
        UUID matchId;
        try {
            matchId = UUID.fromString(connection.pathParam("id"));
        } catch (IllegalArgumentException e) {
            return refuse(404, "There is no match '" + connection.pathParam("id") + "': match ids are UUIDs.");
        }
        Requester requester = requester();
        MatchView view;
        try {
            view = matches.state(matchId, requester);
        } catch (WebApplicationException e) {
            return refuse(e.getResponse().getStatus(), e.getMessage());
        }
        UUID gameId = view.games().get(view.yourSeat()).id();
        SEATS.put(connection.id(), new Seat(matchId, gameId, requester,
                new RateLimit(config.framesPerSecond(), config.burst(), System.nanoTime())));
        return new ServerFrame.State(view).toJson();
    }

    @OnTextMessage
    public String message(String text) {
        Seat seat = SEATS.get(connection.id());
        if (seat == null) {
            return new ServerFrame.Error(403, "This connection is not part of a match.").toJson();
        }
        if (!seat.limit().tryAcquire(System.nanoTime())) {
            return new ServerFrame.Error(429, "Too many frames: at most " + config.framesPerSecond()
                    + " a second; this one was ignored.").toJson();
        }
        ClientFrame frame;
        try {
            frame = ClientFrame.parse(text);
        } catch (ClientFrame.MalformedFrameException e) {
            return new ServerFrame.Error(400, "Malformed frame: " + e.getMessage()).toJson();
        }
        try {
            ServerFrame answer;
            if (frame instanceof ClientFrame.Move m) {
                answer = new ServerFrame.Moved(
                        games.move(seat.gameId(), seat.requester(), m.moveNumber(), m.slot(), m.row(), m.col()));
            } else if (frame instanceof ClientFrame.Resign) {
                games.resign(seat.gameId(), seat.requester());
                answer = new ServerFrame.State(matches.state(seat.matchId(), seat.requester()));
            } else if (frame instanceof ClientFrame.Sync) {
                answer = new ServerFrame.State(matches.state(seat.matchId(), seat.requester()));
            } else {
                answer = new ServerFrame.Pong();
            }
            return answer.toJson();
        } catch (WebApplicationException e) {
            return new ServerFrame.Error(e.getResponse().getStatus(), e.getMessage()).toJson();
        } catch (RuntimeException e) {
            LOG.error("Frame failed", e);
            return new ServerFrame.Error(500, "An unexpected error occurred.").toJson();
        }
    }

    @OnClose
    public void close() {
        SEATS.remove(connection.id());
    }

    private String refuse(int status, String message) {
        connection.sendTextAndAwait(new ServerFrame.Error(status, message).toJson());
        connection.closeAndAwait();
        return null;
    }

    private Requester requester() {
        String token = connection.handshakeRequest().header(GameResource.GAME_TOKEN);
        if (token == null) {
            token = queryParam("gameToken");
        }
        if (identity.isAnonymous()) {
            return new Requester(null, null, token);
        }
        Caller caller = Caller.of(identity);
        return new Requester(caller.subject(), caller.name(), token);
    }

    private String queryParam(String name) {
        String query = connection.handshakeRequest().query();
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
