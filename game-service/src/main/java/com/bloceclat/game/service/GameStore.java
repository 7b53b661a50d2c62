package com.bloceclat.game.service;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.bloceclat.engine.Level;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.OutboxMessage;
import com.bloceclat.game.MatchEntity;

/**
 * Where games' rows and their event logs are kept ({@link DbGameStore}: PostgreSQL). The command layer reaches the
 * database only through this, so it is tested with a store in memory (GameCommandsTest) beside the tests on the real
 * database.
 */
interface GameStore {

    /** The game's row, locked for this transaction (changes of one game are made one at a time), or null. */
    GameEntity locked(UUID id);

    /**
     * The game's row, locked for this transaction, if {@code subject} owns it or (a guest's game) {@code guestTokenHash}
     * is the hash of its token; null otherwise (no such game, or another's), without locking or waiting for the lock.
     */
    GameEntity lockedIfOwned(UUID id, String subject, String guestTokenHash);

    /** The game's row without a lock, or null. */
    GameEntity read(UUID id);

    /** The game's events from number {@code from} on, in order. */
    default List<GameEvent> events(GameEntity g, int from) {
        return events(g, from, Integer.MAX_VALUE);
    }

    /** The game's events from number {@code from} on, in order, {@code limit} at most. */
    List<GameEvent> events(GameEntity g, int from, int limit);

    /** The events {@link #eventsUpTo} reads first; each page after it twice the one before. */
    int PAGE = 64;

    /**
     * The game's events from number {@code from} on of rounds up to {@code round}, in order (rounds never go back: no
     * undo crosses a deal), read a page at a time ({@link #PAGE}, then twice as many each time) and no further than the
     * page that passes that round. A race's seat behind asks for the rounds it has played of the seat ahead: read
     * whole, a game of 100,000 events was read for each of them.
     */
    default List<GameEvent> eventsUpTo(GameEntity g, int from, int round) {
        List<GameEvent> upTo = new ArrayList<>();
        for (int size = PAGE;; size = Math.min(2 * size, 1 << 16)) {
            List<GameEvent> page = events(g, from, size);
            for (GameEvent e : page) {
                if (e.round > round) {
                    return upTo;
                }
                upTo.add(e);
            }
            if (page.size() < size) {
                return upTo;
            }
            from = page.get(page.size() - 1).seq + 1;
        }
    }

    /** Stores a new game's row. */
    void insert(GameEntity g);

    /** Whether the player has started a daily game of that day and level, whatever its status. */
    boolean hasDailyGame(String subject, LocalDate day, Level level);

    /** The player's daily game of that day and level that still counts and is in play, or null. */
    UUID countingDailyInPlay(String subject, LocalDate day, Level level);

    /** Makes the player's daily games of that day and level still in play practice (another one begins). */
    void practiceDailiesInPlay(String subject, LocalDate day, Level level);

    /**
     * Writes a change of a game whose row this transaction has locked, at once: {@code event} appended (none when
     * null), the {@code messages} announcing the change written to the outbox in their order, and what changes in the
     * row after its insert (status, score, event count, times). The rows this store answers are values: a change is
     * stored only by this.
     */
    void write(GameEvent event, GameEntity g, List<OutboxMessage.Outgoing> messages);

    /** A match, or null. */
    MatchEntity match(UUID id);

    /** A match's row, locked for this transaction, or null; taken after the rows of its games this change locks. */
    MatchEntity lockedMatch(UUID id);

    /**
     * Writes what changes in a match's row (its score to beat, its result) for a match locked by this transaction.
     * Matches are values too: a change is stored only by this.
     */
    void updateMatch(MatchEntity m);

    /** The game of {@code seat} in a match, or null. */
    GameEntity seat(UUID matchId, int seat);

    /** A match's games, by seat. */
    List<GameEntity> seats(UUID matchId);

    /** The game of {@code seat} in a match, its row locked for this transaction and read under the lock, or null. */
    GameEntity lockedSeat(UUID matchId, int seat);

    /**
     * {@link #lockedSeat}, but never waiting: null when another transaction holds the row's lock (or there is none).
     */
    GameEntity lockedSeatIfFree(UUID matchId, int seat);

    /** Marks an online race's player of this game as there now ({@link GameEntity#seen}). */
    void seen(UUID gameId);
}
