package com.bloceclat.game;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.UUID;

import com.bloceclat.engine.Level;

/**
 * Matches' rows read and written by plain JDBC on the transaction's connection ({@link Jdbc}), as {@link GameRows}
 * does for games: an AI turn reads its match twice and a match game's change locks it once, each of them through
 * Hibernate an entity load into a session (the replica's CPU an AI placement did not change measurably,
 * docs/benchmarks.md "Where a second replica's CPU goes"; one way to read a match). {@link MatchEntity} stays the
 * row's type, its mapping the one the schema is validated against, and its insert Hibernate's ({@code persist}: a new
 * match's games are inserted by {@link GameRows#insert}, which writes the session first).
 * <p>
 * The columns that change after the insert, and only through {@link #update}: {@code status},
 * {@code target_score}, {@code winner_seat}, {@code result}, {@code finished_at}.
 */
public final class MatchRows {

    private static final String COLUMNS = "id, mode, level, seed, strength, status, target_score, winner_seat, "
            + "result, created_at, finished_at";

    private MatchRows() {
    }

    /** The match's row, or null; {@code lock}: locked for this transaction ({@code FOR UPDATE}). */
    public static MatchEntity byId(UUID id, boolean lock) {
        return Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement("SELECT " + COLUMNS + " FROM match WHERE id = ?"
                    + (lock ? " FOR UPDATE" : ""))) {
                q.setObject(1, id);
                try (ResultSet r = q.executeQuery()) {
                    return r.next() ? row(r) : null;
                }
            }
        });
    }

    /**
     * Writes the columns that change after the insert (the class comment) of a match this transaction has locked.
     *
     * @throws IllegalStateException when there is no such row
     */
    public static void update(MatchEntity m) {
        int updated = Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement("UPDATE match SET status = ?, target_score = ?, "
                    + "winner_seat = ?, result = ?, finished_at = ? WHERE id = ?")) {
                q.setString(1, m.status.name());
                q.setObject(2, m.targetScore, Types.INTEGER);
                q.setObject(3, m.winnerSeat, Types.INTEGER);
                q.setString(4, m.result);
                q.setObject(5, m.finishedAt);
                q.setObject(6, m.id);
                return q.executeUpdate();
            }
        });
        if (updated != 1) {
            throw new IllegalStateException("match " + m.id + " has no row to update");
        }
    }

    private static MatchEntity row(ResultSet r) throws SQLException {
        MatchEntity m = new MatchEntity();
        m.id = r.getObject(1, UUID.class);
        m.mode = GameEntity.Mode.valueOf(r.getString(2));
        m.level = Level.valueOf(r.getString(3));
        m.seed = r.getLong(4);
        m.strength = r.getObject(5, Integer.class);
        m.status = MatchEntity.Status.valueOf(r.getString(6));
        m.targetScore = r.getObject(7, Integer.class);
        m.winnerSeat = r.getObject(8, Integer.class);
        m.result = r.getString(9);
        m.createdAt = r.getObject(10, OffsetDateTime.class);
        m.finishedAt = r.getObject(11, OffsetDateTime.class);
        return m;
    }
}
