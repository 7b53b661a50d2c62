package com.bloceclat.game;

import java.io.Serializable;
import java.time.OffsetDateTime;
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

    public static List<GameEvent> ofGame(UUID gameId) {
        return list("gameId = ?1 order by seq", gameId);
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
