package com.bloceclat.game.live;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.WebApplicationException;

import org.jboss.logging.Logger;

import com.bloceclat.common.rest.ProblemMappers;
import com.bloceclat.common.security.Caller;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.rest.GameResource;
import com.bloceclat.game.service.GameService;
import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.MatchView;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;

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

    /** Who is on each open connection of this replica. */
    static final Map<String, Seat> SEATS = new ConcurrentHashMap<>();

    /** The open sockets of this replica per match and caller, at most {@code bloc.live.max-sockets-per-seat}. */
    private static final Map<Owner, Integer> SOCKETS = new ConcurrentHashMap<>();

    /**
     * The open sockets of this replica per client ({@link SocketClients}), whatever their matches, at most
     * {@code bloc.live.max-sockets-per-client}: a client may have seats in any number of finished matches.
     */
    private static final Map<String, Integer> CLIENTS = new ConcurrentHashMap<>();

    /**
     * The sockets of this replica per match, opening or open: counted before a socket's state is read, so that no
     * change committed after that read is skipped unread by {@link LiveUpdates} ({@link #watched}).
     */
    private static final Map<UUID, Integer> WATCHED = new ConcurrentHashMap<>();

    /**
     * The connections of this replica per match, so that {@link LiveUpdates} sends a match's change to its own sockets
     * without visiting every socket of the replica. The connections themselves, not the injected one (a proxy of the
     * socket whose callback runs), since the live consumer sends from a thread of its own. A match has a few sockets
     * at most ({@code bloc.live.max-sockets-per-seat} per seat), kept in the order they opened.
     */
    private static final Map<UUID, Set<WebSocketConnection>> BY_MATCH = new ConcurrentHashMap<>();

    /** The match's open connections on this replica (each with its {@link #SEATS seat}). */
    static Set<WebSocketConnection> socketsOf(UUID matchId) {
        return BY_MATCH.getOrDefault(matchId, Set.of());
    }

    /** Seats a connection: its player, and its place among its match's sockets. */
    static void seat(WebSocketConnection real, Seat seat) {
        BY_MATCH.computeIfAbsent(seat.matchId(), m -> new CopyOnWriteArraySet<>()).add(real);
        SEATS.put(real.id(), seat);
    }

    /** The connection's seat, removed once with its place among its match's sockets; null when it had none. */
    static Seat unseat(String connectionId) {
        Seat seat = SEATS.remove(connectionId);
        if (seat != null) {
            BY_MATCH.computeIfPresent(seat.matchId(), (m, open) -> {
                open.removeIf(c -> c.id().equals(connectionId));
                return open.isEmpty() ? null : open;
            });
        }
        return seat;
    }

    /** Whether a socket of the match is open, or opening, on this replica. */
    static boolean watched(UUID matchId) {
        return WATCHED.containsKey(matchId);
    }

    /**
     * Whose a socket is: a player by their subject, a guest by their game token. The seat follows from these two
     * ({@code MatchService.state} gives the caller the first seat they own), so this counts sockets per seat.
     */
    record Owner(UUID matchId, String subject, String gameToken) {

        static Owner of(UUID matchId, Requester r) {
            // a player's game token is left out: varying it must not make room for more sockets
            return r.guest() ? new Owner(matchId, null, r.gameToken()) : new Owner(matchId, r.subject(), null);
        }
    }

    /**
     * A connection's player: the match, its mode, the caller's seat and game ({@code yourSeat}), every seat's game
     * (a two-players frame may name either seat).
     */
    record Seat(UUID matchId, String mode, int yourSeat, UUID gameId, List<UUID> games, Requester requester,
            RateLimit limit) {

        /** The game a move or resign frame acts on: the caller's, or in a two-players match the one it names. */
        UUID gameFor(Integer seat) {
            if (seat == null || seat == yourSeat) {
                return gameId;
            }
            if (!TWO_PLAYERS.equals(mode)) {
                throw new ForbiddenException("Seat " + seat + " is not yours: this socket plays seat " + yourSeat
                        + " (only a two-players match lets a frame name either seat).");
            }
            return games.get(seat);
        }
    }

    private static final String TWO_PLAYERS = "TWO_PLAYERS";

    /** The race games whose player has a socket open on this replica, for {@link RaceHeartbeat}. */
    static Set<UUID> raceGamesWithSockets() {
        return SEATS.values().stream().filter(s -> "ONLINE_RACE".equals(s.mode())).map(Seat::gameId)
                .collect(Collectors.toSet());
    }

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

    @OnOpen
    public String open() {
        UUID matchId;
        try {
            matchId = UUID.fromString(connection.pathParam("id"));
        } catch (IllegalArgumentException e) {
            return refuse(404, "There is no match '" + connection.pathParam("id") + "': match ids are UUIDs.");
        }
        Requester requester = requester();
        // counted before the database is read, so that sockets over the cap cost it nothing
        Owner owner = Owner.of(matchId, requester);
        String client = SocketClients.of(connection);
        if (!reserve(client, config.maxSocketsPerClient(), CLIENTS)) {
            return refuse(429, "Too many sockets: at most " + config.maxSocketsPerClient()
                    + " open at once from one client on this server; close other tabs.");
        }
        if (!reserve(owner)) {
            release(client, CLIENTS);
            return refuse(429, "Too many sockets: at most " + config.maxSocketsPerSeat()
                    + " to one match for one player on this server; close older tabs of this match.");
        }
        MatchView view;
        try {
            view = matches.state(matchId, requester);
        } catch (WebApplicationException e) {
            release(owner);
            release(client, CLIENTS);
            return refuse(e.getResponse().getStatus(), e.getMessage());
        } catch (RuntimeException e) {
            release(owner);
            release(client, CLIENTS);
            ServerFrame.Error error = unexpected(e);
            return refuse(error.status(), error.message());
        }
        UUID gameId = view.games().get(view.yourSeat()).id();
        Seat seat = new Seat(matchId, view.mode(), view.yourSeat(), gameId,
                view.games().stream().map(GameView::id).toList(), requester,
                new RateLimit(config.framesPerSecond(), config.burst(), System.nanoTime()));
        // Quarkus lists a connection among the open ones from before its @OnOpen runs until it is closed
        Optional<WebSocketConnection> real = connections.findByConnectionId(connection.id());
        if (real.isEmpty()) {
            release(owner);
            release(client, CLIENTS);
            return null; // closed while the state was read
        }
        seat(real.get(), seat);
        if (!connection.isOpen()) {
            // closed while the state was read: @OnClose may have run before the seat was there to remove
            close();
            return null;
        }
        // matches.state has just marked a race player as seen: the heartbeat keeps it so while this stays open
        return new ServerFrame.State(view).toJson();
    }

    /** Counts one more socket for the caller, unless they have the most allowed already. */
    private boolean reserve(Owner owner) {
        boolean room = reserve(owner, config.maxSocketsPerSeat(), SOCKETS);
        if (room) {
            WATCHED.merge(owner.matchId(), 1, Integer::sum);
        }
        return room;
    }

    /** Counts one more socket for {@code key} in {@code counts}, unless it has {@code max} already. */
    private static <K> boolean reserve(K key, int max, Map<K, Integer> counts) {
        boolean[] room = {false};
        counts.compute(key, (k, open) -> {
            int n = open == null ? 0 : open;
            room[0] = n < max;
            return room[0] ? n + 1 : open;
        });
        return room[0];
    }

    private static void release(Owner owner) {
        if (release(owner, SOCKETS)) {
            WATCHED.computeIfPresent(owner.matchId(), (m, open) -> open > 1 ? open - 1 : null);
        }
    }

    /** Counts one socket of {@code key} off; whether it had one. */
    private static <K> boolean release(K key, Map<K, Integer> counts) {
        boolean[] held = {false};
        counts.computeIfPresent(key, (k, open) -> {
            held[0] = true;
            return open > 1 ? open - 1 : null;
        });
        return held[0];
    }

    /**
     * Answers a frame through {@link Frames}, without waiting for the socket to take the answer: the next frame is
     * handled once this method returns, and a client that reads no answer would otherwise leave every later frame
     * waiting in memory unread while the server goes on reading them. A client that goes on sending too fast after
     * {@code bloc.live.refused-before-close} refusals is closed.
     */
    @OnTextMessage
    public void message(String text) {
        if (connection.isClosed() || frames.closing(connection.id())) {
            return; // frames read before its close: nothing more is answered
        }
        String answer = answer(text);
        if (answer != null) {
            frames.send(connection, answer);
        }
    }

    /** The frame's answer; null when the socket is being closed for sending too fast. */
    private String answer(String text) {
        Seat seat = SEATS.get(connection.id());
        if (seat == null) {
            return new ServerFrame.Error(403, "This connection is not part of a match.").toJson();
        }
        if (!seat.limit().tryAcquire(System.nanoTime())) {
            if (seat.limit().refusedInARow() >= config.refusedBeforeClose()) {
                LOG.infof("Socket %s sent %d frames too fast in a row: closed", connection.id(),
                        seat.limit().refusedInARow());
                frames.send(connection, new ServerFrame.Error(429, "Too many frames: at most "
                        + config.framesPerSecond() + " a second, and " + config.refusedBeforeClose()
                        + " were refused in a row; this socket is closed.").toJson());
                frames.close(connection, "flooding", new CloseReason(1008, "Too many frames"));
                return null;
            }
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
                answer = new ServerFrame.Moved(games.move(seat.gameFor(m.seat()), seat.requester(), m.moveNumber(),
                        m.slot(), m.row(), m.col()));
            } else if (frame instanceof ClientFrame.Resign r) {
                games.resign(seat.gameFor(r.seat()), seat.requester());
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
            return unexpected(e).toJson();
        }
    }

    /**
     * What the same REST call would answer ({@code ProblemMappers.unexpected}): the database away or busy is a 503,
     * logged as a warning; anything else a 500, logged with its stack.
     */
    private static ServerFrame.Error unexpected(RuntimeException e) {
        String database = ProblemMappers.databaseUnavailable(e);
        if (database != null) {
            LOG.warnf("Database unavailable, frame answered 503: %s", database);
            return new ServerFrame.Error(503, "The database is unavailable or busy; try again shortly.");
        }
        LOG.error("Frame failed", e);
        return new ServerFrame.Error(500, "An unexpected error occurred.");
    }

    @OnClose
    public void close() {
        // the seat is removed once, so its socket is counted off once, whichever of open and close gets here first
        Seat seat = unseat(connection.id());
        if (seat != null) {
            release(Owner.of(seat.matchId(), seat.requester()));
            release(SocketClients.of(connection), CLIENTS);
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
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
