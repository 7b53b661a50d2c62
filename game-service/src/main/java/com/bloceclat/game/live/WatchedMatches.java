package com.bloceclat.game.live;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The matches a replica watches (a socket of theirs open or opening on it) and, for each, the highest version of each
 * seat's game its live consumer has read. A socket's {@code state} frame is read from the database on the socket's
 * own thread while the consumer sends {@code update} frames from its thread; without this, a state read just before
 * a change could reach the client after that change's update (a {@code sync} or resign answer), or the update could
 * reach no one (a socket whose state was read before the change and that was seated after the consumer had passed):
 * the page then showed the other seat one change behind until its next change, or never, when that change ended the
 * match. {@link #sendIfCurrent} sends a state only if it is not older than anything the consumer has read of the
 * match, atomically with {@link #read}, which the consumer calls before it sends the update: so a state either goes
 * before the update, or is read again. Each match's versions are kept while it is watched, and dropped with its last
 * socket.
 */
final class WatchedMatches {

    /** A watched match: its sockets on this replica, and the highest version of each seat's game read. */
    private static final class Watch {
        /** Changed only inside the map's compute for the match, which serializes it. */
        int sockets;
        /** Seat → highest version read; guarded by the watch itself. */
        final Map<Integer, Integer> read = new HashMap<>(4);
    }

    private final ConcurrentHashMap<UUID, Watch> matches = new ConcurrentHashMap<>();

    /** One more socket of the match, opening: watched from now on. */
    void add(UUID match) {
        matches.compute(match, (m, w) -> {
            Watch watch = w == null ? new Watch() : w;
            watch.sockets++;
            return watch;
        });
    }

    /** One socket of the match fewer; unwatched, and its versions forgotten, with its last. */
    void remove(UUID match) {
        matches.computeIfPresent(match, (m, w) -> --w.sockets > 0 ? w : null);
    }

    /** Whether a socket of the match is open, or opening, here. */
    boolean watched(UUID match) {
        return matches.containsKey(match);
    }

    /** The live consumer has read version {@code version} of seat {@code seat}'s game; kept while the match is watched. */
    void read(UUID match, int seat, int version) {
        Watch w = matches.get(match);
        if (w != null) {
            synchronized (w) {
                w.read.merge(seat, version, Math::max);
            }
        }
    }

    /**
     * Runs {@code send} (which must only queue the frame, never wait) unless the consumer has read a later version of
     * some seat's game than {@code versions} (each seat's, in seat order) shows: then an update newer than this state
     * may have been sent already, and the state must be read again. Whether it was sent. A match no longer watched (its
     * last socket closed meanwhile) has nothing to be behind.
     */
    boolean sendIfCurrent(UUID match, List<Integer> versions, Runnable send) {
        Watch w = matches.get(match);
        if (w == null) {
            send.run();
            return true;
        }
        synchronized (w) {
            for (Map.Entry<Integer, Integer> seen : w.read.entrySet()) {
                int seat = seen.getKey();
                if (seat >= 0 && seat < versions.size() && versions.get(seat) < seen.getValue()) {
                    return false;
                }
            }
            send.run();
            return true;
        }
    }
}
