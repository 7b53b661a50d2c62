package com.bloceclat.game;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.bloceclat.engine.Level;

/**
 * Games' rows read and written by plain JDBC on the transaction's connection ({@link Jdbc}; docs/game-service.md
 * "Lean writes"): the rows of the command layer are plain values, not entities of Hibernate's session, so a move
 * locks its row and reads it with one statement and writes its summary with one, without a session. {@link GameEntity} stays the row's type (and its mapping, which the schema is validated against).
 * <p>
 * The row's columns that change after its insert, and only through {@link #write}: {@code status}, {@code score},
 * {@code assisted}, {@code event_count}, {@code updated_at}, {@code finished_at}, {@code left_at}. The others are
 * written elsewhere, never here: {@code last_seen_at} ({@link GameEntity#seen}), {@code client_key} (ClientLimits),
 * {@code ai_lease_*} (AiLeases), {@code daily_practice} ({@link GameEntity#practiceDailiesInPlay}).
 */
public final class GameRows {

    private static final String COLUMNS = "id, mode, level, seed, seed_source, daily_day, owner_subject, owner_name, "
            + "guest_token_hash, status, score, assisted, event_count, created_at, updated_at, finished_at, match_id, "
            + "seat, last_seen_at, left_at, daily_practice";

    private GameRows() {
    }

    /** The game's row, or null; {@code lock}: locked for this transaction ({@code FOR UPDATE}). */
    public static GameEntity byId(UUID id, boolean lock) {
        return one("SELECT " + COLUMNS + " FROM game WHERE id = ?" + (lock ? " FOR UPDATE" : ""), id);
    }

    /**
     * The game's row, locked for this transaction, if {@code subject} owns it or, a guest's game, its token's hash is
     * {@code guestTokenHash}; else null, and then nothing was locked or waited for: PostgreSQL locks only the rows
     * that pass the condition, and checks it before it waits for another transaction's lock.
     */
    public static GameEntity byIdIfOwned(UUID id, String subject, String guestTokenHash) {
        return one("SELECT " + COLUMNS + " FROM game WHERE id = ? "
                + "AND (owner_subject = ? OR (owner_subject IS NULL AND guest_token_hash = ?)) FOR UPDATE",
                id, subject, guestTokenHash);
    }

    /** The game of {@code seat} in a match, or null; {@code lock}: locked for this transaction. */
    public static GameEntity seat(UUID matchId, int seat, boolean lock) {
        return one("SELECT " + COLUMNS + " FROM game WHERE match_id = ? AND seat = ?" + (lock ? " FOR UPDATE" : ""),
                matchId, seat);
    }

    /** The game of {@code seat} in a match, locked for this transaction; null if none or another holds its lock. */
    public static GameEntity seatIfFree(UUID matchId, int seat) {
        return one("SELECT " + COLUMNS + " FROM game WHERE match_id = ? AND seat = ? FOR UPDATE SKIP LOCKED",
                matchId, seat);
    }

    /** A match's games, by seat. */
    public static List<GameEntity> ofMatch(UUID matchId) {
        return Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement("SELECT " + COLUMNS + " FROM game WHERE match_id = ? "
                    + "ORDER BY seat")) {
                q.setObject(1, matchId);
                try (ResultSet r = q.executeQuery()) {
                    List<GameEntity> games = new ArrayList<>(2);
                    while (r.next()) {
                        games.add(row(r));
                    }
                    return games;
                }
            }
        });
    }

    /**
     * Inserts a new game's row. What Hibernate's session holds is written first: the row refers to its match, which
     * may have been persisted in this transaction and not written yet.
     */
    public static void insert(GameEntity g) {
        GameEntity.getEntityManager().flush();
        Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement("INSERT INTO game (" + COLUMNS + ") "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                q.setObject(1, g.id);
                q.setString(2, g.mode.name());
                q.setString(3, g.level.name());
                q.setLong(4, g.seed);
                q.setString(5, g.seedSource.name());
                q.setObject(6, g.dailyDay, Types.DATE);
                q.setString(7, g.ownerSubject);
                q.setString(8, g.ownerName);
                q.setString(9, g.guestTokenHash);
                q.setString(10, g.status.name());
                q.setInt(11, g.score);
                q.setBoolean(12, g.assisted);
                q.setInt(13, g.eventCount);
                q.setObject(14, g.createdAt);
                q.setObject(15, g.updatedAt);
                q.setObject(16, g.finishedAt);
                q.setObject(17, g.matchId);
                q.setObject(18, g.seat, Types.INTEGER);
                q.setObject(19, g.lastSeenAt);
                q.setObject(20, g.leftAt);
                q.setBoolean(21, g.dailyPractice);
                return q.executeUpdate();
            }
        });
    }

    /**
     * Writes a change of a game whose row this transaction has locked, in one statement (one round trip to
     * PostgreSQL): {@code event} appended when there is one, the {@code messages} announcing the change written to the
     * outbox in their order, and the columns that change after the insert (the class comment) written. A statement's
     * parts commit or roll back together, with the transaction around it.
     *
     * @throws IllegalStateException when there is no such row
     */
    public static void write(GameEvent event, GameEntity g, List<OutboxMessage.Outgoing> messages) {
        List<String> parts = new ArrayList<>(2);
        if (event != null) {
            parts.add("e AS (" + GameEvent.INSERT + ")");
        }
        if (!messages.isEmpty()) {
            parts.add("o AS (" + OutboxMessage.insert(messages.size()) + ")");
        }
        String sql = (parts.isEmpty() ? "" : "WITH " + String.join(", ", parts) + " ") + "UPDATE game SET status = ?, "
                + "score = ?, assisted = ?, event_count = ?, updated_at = ?, finished_at = ?, left_at = ? WHERE id = ?";
        int updated = Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement(sql)) {
                int at = event == null ? 1 : GameEvent.bind(q, 1, event);
                for (OutboxMessage.Outgoing m : messages) {
                    at = OutboxMessage.bind(q, at, m);
                }
                q.setString(at, g.status.name());
                q.setInt(at + 1, g.score);
                q.setBoolean(at + 2, g.assisted);
                q.setInt(at + 3, g.eventCount);
                q.setObject(at + 4, g.updatedAt);
                q.setObject(at + 5, g.finishedAt);
                q.setObject(at + 6, g.leftAt);
                q.setObject(at + 7, g.id);
                return q.executeUpdate();
            }
        });
        if (updated != 1) {
            throw new IllegalStateException("game " + g.id + " has no row to update");
        }
    }

    /** The one row {@code sql} finds, or null; a null parameter is an SQL NULL of a string. */
    private static GameEntity one(String sql, Object... parameters) {
        return Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    if (parameters[i] == null) {
                        q.setNull(i + 1, Types.VARCHAR);
                    } else {
                        q.setObject(i + 1, parameters[i]);
                    }
                }
                try (ResultSet r = q.executeQuery()) {
                    return r.next() ? row(r) : null;
                }
            }
        });
    }

    private static GameEntity row(ResultSet r) throws SQLException {
        GameEntity g = new GameEntity();
        g.id = r.getObject(1, UUID.class);
        g.mode = GameEntity.Mode.valueOf(r.getString(2));
        g.level = Level.valueOf(r.getString(3));
        g.seed = r.getLong(4);
        g.seedSource = GameEntity.SeedSource.valueOf(r.getString(5));
        g.dailyDay = r.getObject(6, LocalDate.class);
        g.ownerSubject = r.getString(7);
        g.ownerName = r.getString(8);
        g.guestTokenHash = r.getString(9);
        g.status = GameEntity.Status.valueOf(r.getString(10));
        g.score = r.getInt(11);
        g.assisted = r.getBoolean(12);
        g.eventCount = r.getInt(13);
        g.createdAt = r.getObject(14, OffsetDateTime.class);
        g.updatedAt = r.getObject(15, OffsetDateTime.class);
        g.finishedAt = r.getObject(16, OffsetDateTime.class);
        g.matchId = r.getObject(17, UUID.class);
        g.seat = r.getObject(18, Integer.class);
        g.lastSeenAt = r.getObject(19, OffsetDateTime.class);
        g.leftAt = r.getObject(20, OffsetDateTime.class);
        g.dailyPractice = r.getBoolean(21);
        return g;
    }
}
