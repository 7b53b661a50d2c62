package com.bloceclat.game.live;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.common.limits.TokenBucket;
import com.bloceclat.common.security.Caller;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.live.LiveSockets.Owner;
import com.bloceclat.game.live.LiveSockets.Refusal;
import com.bloceclat.game.rest.GameResource;
import com.bloceclat.game.service.Requester;

import io.quarkus.arc.ClientProxy;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnPingMessage;
import io.quarkus.websockets.next.OnPongMessage;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.buffer.Buffer;

/**
 * One socket per player and match: {@code /api/matches/{id}/live}. A logged-in player sends their bearer token with
 * the upgrade request; a guest sends header {@code X-Game-Token} (a browser: as a subprotocol; {@code ?gameToken=...}
 * is still read, for clients of before, though an address is what access logs keep). On opening, and on every
 * {@code sync}, the whole state is sent, so reconnecting resumes from the current state. Changes of either game arrive as {@code update} frames,
 * whichever replica made them (see {@link LiveUpdates}).
 * <p>
 * Every callback here runs on the event loop and waits for nothing: the WebSocket layer reads a connection's frames
 * into a queue of its own, without bound, while a callback of that connection runs, so one that waited (for the
 * database, a worker) let a client's frames pile up unread and uncounted. A frame is counted against the socket's rate
 * as it is read, and one let through waits in the socket's {@link SocketInbox} (at most {@code bloc.live.burst}) to
 * be handled on a worker, in the order read, after the state the socket opens with.
 */
@WebSocket(path = "/api/matches/{id}/live")
public class MatchSocket {

    private static final Logger LOG = Logger.getLogger(MatchSocket.class);

    @Inject
    WebSocketConnection connection;

    @Inject
    SecurityIdentity identity;

    @Inject
    MatchFrames work;

    @Inject
    GameConfig.Live config;

    @Inject
    Frames frames;

    /**
     * Checks what needs no database (the address, the caps) and hands the rest to a worker
     * ({@link MatchFrames#seat}): the socket's frames read meanwhile wait in its inbox, counted.
     */
    @OnOpen
    @NonBlocking
    public void open() {
        // the connection itself: the injected one is a proxy usable only while a callback of this socket runs
        WebSocketConnection socket = ClientProxy.unwrap(connection);
        SocketInbox inbox = inbox();
        UUID matchId;
        try {
            matchId = UUID.fromString(socket.pathParam("id"));
        } catch (IllegalArgumentException e) {
            Frames.refuse(socket, 404, "There is no match '" + socket.pathParam("id") + "': match ids are UUIDs.");
            return;
        }
        Requester requester;
        try {
            requester = requester();
        } catch (IllegalArgumentException e) { // a query parameter that is not URL-encoded (?gameToken=%zz)
            Frames.refuse(socket, 400, "Malformed address: " + e.getMessage() + ".");
            return;
        }
        // counted before the database is read, so that sockets over the cap cost it nothing
        Owner owner = Owner.of(matchId, requester);
        String client = SocketClients.of(socket);
        Refusal refusal = LiveSockets.reserve(client, config.maxSocketsPerClient(), owner, config.maxSocketsPerSeat());
        if (refusal == Refusal.CLIENT) {
            Frames.refuse(socket, 429, "Too many sockets: at most " + config.maxSocketsPerClient()
                    + " open at once from one client on this server; close other tabs.");
            return;
        }
        if (refusal == Refusal.SEAT) {
            Frames.refuse(socket, 429, "Too many sockets: at most " + config.maxSocketsPerSeat()
                    + " to one match for one player on this server; close older tabs of this match.");
            return;
        }
        Infrastructure.getDefaultWorkerPool()
                .execute(() -> work.seat(socket, inbox, matchId, requester, client, owner));
    }

    /** This socket's inbox, made at its first frame or its {@code @OnOpen}, whichever comes first. */
    private SocketInbox inbox() {
        return LiveSockets.inbox(connection.id(), () -> new SocketInbox(Infrastructure.getDefaultWorkerPool(),
                config.burst(), config.framesPerSecond(), config.burst(), System.nanoTime()));
    }

    /**
     * Counts the frame as it is read and queues its handling ({@link SocketInbox}); answers go through {@link Frames},
     * without waiting for the socket to take them. Every 429 (over the rate, or the inbox full) is sent at once, so
     * maybe before the state or the answers of frames read before it, and a client that goes on sending too fast
     * after {@code bloc.live.refused-before-close} refusals is closed; frames let through are answered in the order
     * read, after the state.
     */
    @OnTextMessage
    @NonBlocking
    public void message(String text) {
        receive(text);
    }

    /**
     * A binary frame is answered as a malformed one, and counted as a frame: without this method Quarkus dropped it
     * unanswered, and a client could send them without end, never slowed down nor closed for flooding.
     */
    @OnBinaryMessage
    @NonBlocking
    public void binary(Buffer data) {
        receive(null);
    }

    /** A text frame, or null for a binary one; on the event loop, which must not wait. */
    private void receive(String text) {
        if (connection.isClosed() || frames.closing(connection.id())) {
            return; // frames read before its close: nothing more is answered
        }
        LiveSockets.heard(connection.id());
        SocketInbox inbox = inbox();
        TokenBucket limit = inbox.frames();
        if (!limit.tryAcquire(System.nanoTime())) {
            if (limit.refusedInARow() >= config.refusedBeforeClose()) {
                closeForFlooding(limit);
            } else {
                frames.send(connection, new ServerFrame.Error(429, "Too many frames: at most "
                        + config.framesPerSecond() + " a second; this one was ignored.").toJson());
            }
            return;
        }
        WebSocketConnection socket = ClientProxy.unwrap(connection);
        if (!inbox.offer(() -> work.handle(socket, text))) {
            frames.send(connection, new ServerFrame.Error(429, "Too many frames waiting: at most " + config.burst()
                    + " wait for an answer; this one was ignored.").toJson());
        }
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
     * the server pings every few seconds, so only a client sending pongs of its own goes past it, and going on is
     * closed as a flood (uncounted, pongs were read without end).
     */
    @OnPongMessage
    @NonBlocking
    public void pong(Buffer data) {
        if (control()) {
            closeForFlooding(inbox().controls());
        }
    }

    /**
     * A ping the client sends. The WebSocket layer (Vert.x) answers each with a pong of its own, written whether or not
     * the client reads: a client sending pings without end and reading nothing filled the replica's memory with pongs,
     * counted nowhere. A browser sends no ping of its own: pings share the pongs' rate, and a client going on past it
     * has its connection dropped at once, since a close frame would wait behind the pongs it has not read while the
     * server went on answering its pings.
     */
    @OnPingMessage
    @NonBlocking
    public void ping(Buffer data) {
        if (control()) {
            LOG.infof("Socket %s sent %d pings and pongs too fast in a row: dropped", connection.id(),
                    inbox().controls().refusedInARow());
            frames.drop(connection, "flooding");
        }
    }

    /** Counts a ping or pong; whether the client has gone past their rate for too long, and is to be closed. */
    private boolean control() {
        if (connection.isClosed() || frames.closing(connection.id())) {
            return false;
        }
        LiveSockets.heard(connection.id());
        TokenBucket controls = inbox().controls();
        return !controls.tryAcquire(System.nanoTime()) && controls.refusedInARow() >= config.refusedBeforeClose();
    }

    @OnClose
    @NonBlocking
    public void close() {
        LiveSockets.closed(ClientProxy.unwrap(connection));
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
