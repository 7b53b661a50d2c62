package com.bloceclat.game.live;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.ws.rs.ForbiddenException;

import com.bloceclat.common.limits.CountsPerKey;
import com.bloceclat.game.service.Requester;

import io.quarkus.websockets.next.WebSocketConnection;

/**
 * This replica's match sockets: who is on each ({@link Seat}), how many each seat and each client hold (the caps of
 * {@link MatchSocket}), which matches are watched here, and each match's connections for {@link LiveUpdates}. It lives
 * in the replica's memory only: each replica counts and serves its own sockets.
 */
final class LiveSockets {

    /** Why a socket was refused before its match was read. */
    enum Refusal {
        /** {@code bloc.live.max-sockets-per-client} open already from its client */
        CLIENT,
        /** {@code bloc.live.max-sockets-per-seat} open already to its seat */
        SEAT
    }

    /** Who is on each open connection of this replica. */
    private static final Map<String, Seat> SEATS = new ConcurrentHashMap<>();

    /** The open sockets of this replica per match and caller, at most {@code bloc.live.max-sockets-per-seat}. */
    private static final CountsPerKey<Owner> SOCKETS = new CountsPerKey<>();

    /**
     * The open sockets of this replica per client ({@link SocketClients}), whatever their matches, at most
     * {@code bloc.live.max-sockets-per-client}: a client may have seats in any number of finished matches.
     */
    private static final CountsPerKey<String> CLIENTS = new CountsPerKey<>();

    /**
     * The matches with a socket opening or open on this replica: counted before a socket's state is read, so that no
     * change committed after that read is skipped unread by {@link LiveUpdates} ({@link #watched}); and what the live
     * consumer has read of each, so that no state frame is older than an update sent before it ({@link #sendIfCurrent}).
     */
    private static final WatchedMatches WATCHED = new WatchedMatches();

    /**
     * The connections of this replica per match, so that {@link LiveUpdates} sends a match's change to its own sockets
     * without visiting every socket of the replica. The connections themselves, not the one injected in the endpoint
     * (a proxy of the socket whose callback runs), since the live consumer sends from a thread of its own. A match
     * has a few sockets at most ({@code bloc.live.max-sockets-per-seat} per seat), kept in the order they opened.
     */
    private static final Map<UUID, Set<WebSocketConnection>> BY_MATCH = new ConcurrentHashMap<>();

    /**
     * Each open connection's frames read and not yet handled, with its rates ({@link SocketInbox}): from its first
     * frame or its {@code @OnOpen}, whichever comes first, to its close.
     */
    private static final Map<String, SocketInbox> INBOXES = new ConcurrentHashMap<>();

    /** When each seated connection last sent something (a frame, a pong), {@link System#nanoTime}. */
    private static final Map<String, Long> HEARD = new ConcurrentHashMap<>();

    private static final String TWO_PLAYERS = "TWO_PLAYERS";

    private LiveSockets() {
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
     * (a two-players frame may name either seat), and who the caller is. Its rates are its {@link SocketInbox}'s,
     * which it has from its first frame, before it is seated.
     */
    record Seat(UUID matchId, String mode, int yourSeat, UUID gameId, List<UUID> games, Requester requester) {

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

    /**
     * Counts one more socket for the client and the seat, unless either has the most allowed already (then neither
     * is counted); the match is watched from here on.
     */
    static Refusal reserve(String client, int maxPerClient, Owner owner, int maxPerSeat) {
        if (!CLIENTS.tryAdd(client, maxPerClient)) {
            return Refusal.CLIENT;
        }
        if (!SOCKETS.tryAdd(owner, maxPerSeat)) {
            CLIENTS.remove(client);
            return Refusal.SEAT;
        }
        WATCHED.add(owner.matchId());
        return null;
    }

    /** Counts off a socket {@link #reserve} counted. */
    static void release(String client, Owner owner) {
        CLIENTS.remove(client);
        if (SOCKETS.remove(owner)) {
            WATCHED.remove(owner.matchId());
        }
    }

    /** Seats a connection: its player, and its place among its match's sockets. */
    static void seat(WebSocketConnection real, Seat seat) {
        // added inside the map's lock: an unseat that empties the match's set meanwhile cannot drop it with this one
        BY_MATCH.compute(seat.matchId(), (m, open) -> {
            Set<WebSocketConnection> sockets = open == null ? new CopyOnWriteArraySet<>() : open;
            sockets.add(real);
            return sockets;
        });
        HEARD.put(real.id(), System.nanoTime());
        SEATS.put(real.id(), seat);
    }

    /** The connection's client sent something: a frame, or a pong to the server's ping. */
    static void heard(String connectionId) {
        HEARD.computeIfPresent(connectionId, (id, then) -> System.nanoTime());
    }

    /** Whether the connection's client sent nothing for longer than {@code silentAfter}. */
    private static boolean silent(String connectionId, long now, long silentAfterNanos) {
        Long then = HEARD.get(connectionId);
        return then != null && now - then > silentAfterNanos;
    }

    /** The seated connections whose client sent nothing, not even a pong, for longer than {@code silentAfterNanos}. */
    static List<WebSocketConnection> silent(long silentAfterNanos) {
        long now = System.nanoTime();
        return seated().filter(c -> silent(c.id(), now, silentAfterNanos)).toList();
    }

    /** This replica's seated connections. */
    static Stream<WebSocketConnection> seated() {
        return BY_MATCH.values().stream().flatMap(Set::stream);
    }

    /** The connection's inbox, made by {@code newInbox} if it has none yet. */
    static SocketInbox inbox(String connectionId, Supplier<SocketInbox> newInbox) {
        return INBOXES.computeIfAbsent(connectionId, id -> newInbox.get());
    }

    /**
     * The connection's seat, removed once with its place among its match's sockets (null when it had none), and its
     * inbox closed: its frames waiting are dropped.
     */
    static Seat unseat(String connectionId) {
        SocketInbox inbox = INBOXES.remove(connectionId);
        if (inbox != null) {
            inbox.close();
        }
        Seat seat = SEATS.remove(connectionId);
        HEARD.remove(connectionId);
        if (seat != null) {
            BY_MATCH.computeIfPresent(seat.matchId(), (m, open) -> {
                open.removeIf(c -> c.id().equals(connectionId));
                return open.isEmpty() ? null : open;
            });
        }
        return seat;
    }

    /** Forgets a closed socket: its frames waiting, its seat and its place under the caps. */
    static void closed(WebSocketConnection socket) {
        // the seat is removed once, so its socket is counted off once, whichever of seat and close gets here first
        Seat seat = unseat(socket.id());
        if (seat != null) {
            release(SocketClients.of(socket), Owner.of(seat.matchId(), seat.requester()));
        }
    }

    /** The connection's seat; null when it has none (not, or no longer, part of a match). */
    static Seat seatOf(String connectionId) {
        return SEATS.get(connectionId);
    }

    /** The match's open connections on this replica (each with its seat). */
    static Set<WebSocketConnection> socketsOf(UUID matchId) {
        return BY_MATCH.getOrDefault(matchId, Set.of());
    }

    /** Whether a socket of the match is open, or opening, on this replica. */
    static boolean watched(UUID matchId) {
        return WATCHED.watched(matchId);
    }

    /** The live consumer read this version of a match's game, and is about to send it to the match's sockets. */
    static void read(UUID matchId, int seat, int version) {
        WATCHED.read(matchId, seat, version);
    }

    /**
     * Queues a state frame of the match ({@code send}) unless it is older than a change the live consumer has read of
     * it ({@link WatchedMatches#sendIfCurrent}); whether it was queued.
     */
    static boolean sendIfCurrent(UUID matchId, List<Integer> versions, Runnable send) {
        return WATCHED.sendIfCurrent(matchId, versions, send);
    }

    /**
     * The race games whose player has a socket open on this replica that sent something within
     * {@code silentAfterNanos}, for {@link RaceHeartbeat}: an open socket whose client has gone silent keeps no one.
     */
    static Set<UUID> raceGamesWithSockets(long silentAfterNanos) {
        long now = System.nanoTime();
        return SEATS.entrySet().stream().filter(e -> "ONLINE_RACE".equals(e.getValue().mode()))
                .filter(e -> !silent(e.getKey(), now, silentAfterNanos)).map(e -> e.getValue().gameId())
                .collect(Collectors.toSet());
    }
}
