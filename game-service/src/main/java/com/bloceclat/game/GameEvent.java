package com.bloceclat.game;

import java.io.Serializable;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;


import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** One event of a game, numbered from 0 in the order it was applied. */
@Entity
@Table(name = "game_event")
@IdClass(GameEvent.Key.class)
public class GameEvent extends PanacheEntityBase {

    public enum Type {
        PLACE, UNDO, HINT, RESIGN
    }

    @Id
    @Column(name = "game_id")
    public UUID gameId;

    @Id
    public int seq;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public Type type;

    @Column(nullable = false)
    public int round;

    public Integer slot;

    @Column(name = "row_index")
    public Integer row;

    @Column(name = "col_index")
    public Integer col;

    /** PLACE: the client's move number; UNDO: the move number taken back. */
    @Column(name = "move_number")
    public Integer moveNumber;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    /** The insert of one event; its parameters are set by {@link #bind}. */
    public static final String INSERT = "INSERT INTO game_event (game_id, seq, type, round, slot, row_index, "
            + "col_index, move_number, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /** Sets {@link #INSERT}'s parameters from {@code at} on; answers the index after them. */
    public static int bind(PreparedStatement q, int at, GameEvent e) throws SQLException {
        q.setObject(at, e.gameId);
        q.setInt(at + 1, e.seq);
        q.setString(at + 2, e.type.name());
        q.setInt(at + 3, e.round);
        q.setObject(at + 4, e.slot, Types.INTEGER);
        q.setObject(at + 5, e.row, Types.INTEGER);
        q.setObject(at + 6, e.col, Types.INTEGER);
        q.setObject(at + 7, e.moveNumber, Types.INTEGER);
        q.setObject(at + 8, e.createdAt);
        return at + 9;
    }

    /**
     * The game's events from number {@code from} on, in order, {@code limit} at most, by JDBC on the transaction's
     * connection (values, not entities of Hibernate's session: a long game's hundreds of events are neither managed nor
     * dirty-checked).
     */
    public static List<GameEvent> ofGame(UUID gameId, int from, int limit) {
        return Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement("SELECT seq, type, round, slot, row_index, col_index, "
                    + "move_number, created_at FROM game_event WHERE game_id = ? AND seq >= ? ORDER BY seq LIMIT ?")) {
                q.setObject(1, gameId);
                q.setInt(2, from);
                q.setInt(3, limit);
                try (ResultSet r = q.executeQuery()) {
                    List<GameEvent> events = new ArrayList<>();
                    while (r.next()) {
                        GameEvent e = new GameEvent();
                        e.gameId = gameId;
                        e.seq = r.getInt(1);
                        e.type = Type.valueOf(r.getString(2));
                        e.round = r.getInt(3);
                        e.slot = r.getObject(4, Integer.class);
                        e.row = r.getObject(5, Integer.class);
                        e.col = r.getObject(6, Integer.class);
                        e.moveNumber = r.getObject(7, Integer.class);
                        e.createdAt = r.getObject(8, OffsetDateTime.class);
                        events.add(e);
                    }
                    return events;
                }
            }
        });
    }

    /** The composite key (game, seq). */
    public static class Key implements Serializable {
        public UUID gameId;
        public int seq;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.seq == seq && Objects.equals(k.gameId, gameId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(gameId, seq);
        }
    }
}
