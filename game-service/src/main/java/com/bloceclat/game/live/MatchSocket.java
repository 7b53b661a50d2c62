package com.bloceclat.game.live;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;

import org.jboss.logging.Logger;

import com.bloceclat.common.limits.TokenBucket;
import com.bloceclat.common.rest.Problem;
import com.bloceclat.common.rest.ProblemMappers;
import com.bloceclat.common.security.Caller;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.live.LiveSockets.Owner;
import com.bloceclat.game.live.LiveSockets.Refusal;
import com.bloceclat.game.live.LiveSockets.Seat;
import com.bloceclat.game.rest.GameResource;
import com.bloceclat.game.service.GameService;
import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.MatchView;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnPongMessage;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.buffer.Buffer;

/**
 * One socket per player and match: {@code /api/matches/{id}/live}. A logged-in player sends their bearer token with
 * the upgrade request; a guest sends header {@code X-Game-Token} (a browser: as a subprotocol; {@code ?gameToken=...}
 * is still read, for clients of before, though an address is what access logs keep). On opening, and on every
 * {@code sync}, the whole state is sent, so reconnecting resumes from the current state. Changes of either game arrive as {@code update} frames,
 * whichever replica made them (see {@link LiveUpdates}).
 */
@WebSocket(path = "/api/matches/{id}/live")
public class MatchSocket {

    private static final Logger LOG = Logger.getLogger(MatchSocket.class);

    @Inject
    WebSocketConnection connection;

    @Inject
    OpenConnections connections;

    @Inject
    SecurityIdentity identity;

    @Inject
    MatchService matches;

    @Inject
    GameService games;

    @Inject
    GameConfig.Live config;

    @Inject
    Frames frames;

    @Inject
    StateFrames states;

    @OnOpen
    public String open() {
        UUID matchId;
        try {
            matchId = UUID.fromString(connection.pathParam("id"));
        } catch (IllegalArgumentException e) {
            return refuse(404, "There is no match '" + connection.pathParam("id") + "': match ids are UUIDs.");
        }
        Requester requester;
        try {
            requester = requester();
        } catch (IllegalArgumentException e) { // a query parameter that is not URL-encoded (?gameToken=%zz)
            return refuse(400, "Malformed address: " + e.getMessage() + ".");
        }
        // counted before the database is read, so that sockets over the cap cost it nothing
        Owner owner = Owner.of(matchId, requester);
        String client = SocketClients.of(connection);
        Refusal refusal = LiveSockets.reserve(client, config.maxSocketsPerClient(), owner, config.maxSocketsPerSeat());
        if (refusal == Refusal.CLIENT) {
            return refuse(429, "Too many sockets: at most " + config.maxSocketsPerClient()
                    + " open at once from one client on this server; close other tabs.");
        }
        if (refusal == Refusal.SEAT) {
            return refuse(429, "Too many sockets: at most " + config.maxSocketsPerSeat()
                    + " to one match for one player on this server; close older tabs of this match.");
        }
        MatchView view;
        try {
            view = matches.state(matchId, requester);
        } catch (WebApplicationException e) {
            LiveSockets.release(client, owner);
            return refuse(e.getResponse().getStatus(), e.getMessage());
        } catch (RuntimeException e) {
            LiveSockets.release(client, owner);
            ServerFrame.Error error = unexpected(e);
            return refuse(error.status(), error.message());
        }
        UUID gameId = view.games().get(view.yourSeat()).id();
        Seat seat = new Seat(matchId, view.mode(), view.yourSeat(), gameId,
                view.games().stream().map(GameView::id).toList(), requester,
                new TokenBucket(config.framesPerSecond(), config.burst(), System.nanoTime()),
                new TokenBucket(config.framesPerSecond(), config.burst(), System.nanoTime()));
        // Quarkus lists a connection among the open ones from before its @OnOpen runs until it is closed
        Optional<WebSocketConnection> real = connections.findByConnectionId(connection.id());
        if (real.isEmpty()) {
            LiveSockets.release(client, owner);
            return null; // closed while the state was read
        }
        LiveSockets.seat(real.get(), seat);
        if (!connection.isOpen()) {
            // closed while the state was read: @OnClose may have run before the seat was there to remove
            close();
            return null;
        }
        // matches.state has just marked a race player as seen: the heartbeat keeps it so while this stays open
        states.send(real.get(), matchId, requester, view);
        return null;
    }

    /**
     * Answers a frame through {@link Frames}, without waiting for the socket to take the answer: the next frame is
     * handled once this method returns, and a client that reads no answer would otherwise leave every later frame
     * waiting in memory unread while the server goes on reading them. A client that goes on sending too fast after
     * {@code bloc.live.refused-before-close} refusals is closed.
     */
    @OnTextMessage
    public void message(String text) {
        handle(text);
    }

    /**
     * A binary frame is answered as a malformed one, and counted as a frame: without this method Quarkus dropped it
     * unanswered, and a client could send them without end, never slowed down nor closed for flooding.
     */
    @OnBinaryMessage
    public void binary(Buffer data) {
        handle(null);
    }

    /** A text frame, or null for a binary one. */
    private void handle(String text) {
        if (connection.isClosed() || frames.closing(connection.id())) {
            return; // frames read before its close: nothing more is answered
        }
        LiveSockets.heard(connection.id());
        String answer = answer(text);
        if (answer != null) {
            frames.send(connection, answer);
        }
    }

    /**
     * The frame's answer; null when it has been sent already (a state, {@link StateFrames}) or the socket is being
     * closed for sending too fast.
     */
    private String answer(String text) {
        Seat seat = LiveSockets.seatOf(connection.id());
        if (seat == null) {
            return new ServerFrame.Error(403, "This connection is not part of a match.").toJson();
        }
        if (!seat.limit().tryAcquire(System.nanoTime())) {
            if (seat.limit().refusedInARow() >= config.refusedBeforeClose()) {
                closeForFlooding(seat.limit());
                return null;
            }
            return new ServerFrame.Error(429, "Too many frames: at most " + config.framesPerSecond()
                    + " a second; this one was ignored.").toJson();
        }
        if (text == null) {
            return new ServerFrame.Error(400, "Malformed frame: a frame is JSON text, not binary.").toJson();
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
                answer = new ServerFrame.Moved(games.move(seat.gameFor(m.seat()), seat.requester(), m.moveNumber(),
                        m.slot(), m.row(), m.col()));
            } else if (frame instanceof ClientFrame.Resign || frame instanceof ClientFrame.Sync) {
                if (frame instanceof ClientFrame.Resign r) {
                    games.resign(seat.gameFor(r.seat()), seat.requester());
                }
                states.send(connection, seat.matchId(), seat.requester(),
                        matches.state(seat.matchId(), seat.requester()));
                return null;
            } else {
                answer = new ServerFrame.Pong();
            }
            return answer.toJson();
        } catch (WebApplicationException e) {
            return new ServerFrame.Error(e.getResponse().getStatus(), e.getMessage()).toJson();
        } catch (RuntimeException e) {
            return unexpected(e).toJson();
        }
    }

    /**
     * What the same REST call would answer, by the same rule ({@code ProblemMappers.unexpectedProblem}): the database
     * away or busy is a 503, a unique key taken meanwhile a 409, anything else a 500, each logged as that rule says.
     */
    private static ServerFrame.Error unexpected(RuntimeException e) {
        Problem problem = ProblemMappers.unexpectedProblem(e);
        return new ServerFrame.Error(problem.status(), problem.detail());
    }

    private void closeForFlooding(TokenBucket limit) {
        LOG.infof("Socket %s sent %d frames too fast in a row: closed", connection.id(), limit.refusedInARow());
        frames.send(connection, new ServerFrame.Error(429, "Too many frames: at most " + config.framesPerSecond()
                + " a second, and " + config.refusedBeforeClose() + " were refused in a row; this socket is closed.")
                .toJson());
        frames.close(connection, "flooding", new CloseReason(1008, "Too many frames"));
    }

    /**
     * The client's answer to the server's ping: it is still there ({@code bloc.live.silent-after}). Pongs have a rate
     * of their own, the frames' (apart, so that a browser's answers to the pings take nothing from the player's moves);
     * the server pings every few seconds, so only a client sending pongs of its own goes past it, and going on is closed
     * as a flood (each pong took a worker thread, without end). Pings a client sends are answered by the WebSocket
     * layer itself, below this class.
     */
    @OnPongMessage
    public void pong(Buffer data) {
        if (connection.isClosed() || frames.closing(connection.id())) {
            return;
        }
        LiveSockets.heard(connection.id());
        Seat seat = LiveSockets.seatOf(connection.id());
        if (seat != null && !seat.pongs().tryAcquire(System.nanoTime())
                && seat.pongs().refusedInARow() >= config.refusedBeforeClose()) {
            closeForFlooding(seat.pongs());
        }
    }

    @OnClose
    public void close() {
        // the seat is removed once, so its socket is counted off once, whichever of open and close gets here first
        Seat seat = LiveSockets.unseat(connection.id());
        if (seat != null) {
            LiveSockets.release(SocketClients.of(connection), Owner.of(seat.matchId(), seat.requester()));
        }
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
                try {
                    return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("the query parameter '" + name + "' is not URL-encoded", e);
                }
            }
        }
        return null;
    }
}
