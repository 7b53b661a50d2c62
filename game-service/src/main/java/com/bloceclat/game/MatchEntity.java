package com.bloceclat.game;

import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import com.bloceclat.engine.Level;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A contest of two games on one seed; its games point at it ({@link GameEntity#matchId}). */
@Entity
@Table(name = "match")
public class MatchEntity extends PanacheEntityBase {

    public enum Status {
        PLAYING, FINISHED
    }

    @Id
    public UUID id;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public GameEntity.Mode mode;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public Level level;

    @Column(nullable = false)
    public long seed;

    /** The AI's strength, 1 to 5 (versus AI only). */
    public Integer strength;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public Status status;

    /** Versus AI: the score of the first game to end, which the other must beat. */
    @Column(name = "target_score")
    public Integer targetScore;

    /** The winning seat; null while playing and for a draw. */
    @Column(name = "winner_seat")
    public Integer winnerSeat;

    /** The result in words, once finished. */
    public String result;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "finished_at")
    public OffsetDateTime finishedAt;
}
