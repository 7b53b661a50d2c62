package com.bloceclat.game;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import com.bloceclat.engine.Level;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A game's row: how it was set up, who owns it, and a summary of its state written with each event. The state
 * itself is rebuilt from {@link GameEvent}s. game-service reads and writes these rows by plain JDBC
 * ({@link GameRows}), as values: the mapping here is what the schema is validated against, and what queries and
 * tests read.
 */
@Entity
@Table(name = "game")
public class GameEntity extends PanacheEntityBase {

    public enum Mode {
        SOLO, VERSUS_AI, TWO_PLAYERS, ONLINE_RACE
    }

    /** Where a game's seed came from (the same names as {@code GameFinished.SeedSource}). */
    public enum SeedSource {
        /** Drawn by game-service from a CSPRNG; shown to no one before the game ended. */
        SERVER,
        /** The day's seed (HMAC of the server's secret, the UTC day and the level); shown once that day is over. */
        DAILY,
        /** Given by whoever created the game (a challenge link): it may be known in advance, so it is shown. */
        CHOSEN
    }

    public enum Status {
        /** Moves are accepted. */
        PLAYING,
        /** Game over: no remaining piece fits. */
        OVER,
        /** The player gave up. */
        RESIGNED,
        /** Ended because it won its match (versus AI: it beat the score to beat). */
        WON
    }

    @Id
    public UUID id;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public Mode mode;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public Level level;

    @Column(nullable = false)
    public long seed;

    /** Where the seed came from: decides when it may be shown ({@code GameService.seedShown}). */
    @Enumerated(EnumType.STRING)
    @Column(name = "seed_source", nullable = false)
    public SeedSource seedSource;

    /** The UTC day of a daily-challenge game ({@link SeedSource#DAILY}), else null. */
    @Column(name = "daily_day")
    public LocalDate dailyDay;

    /**
     * A daily game whose player had started another daily game of that day and level before it: it plays the same
     * and never counts (only a player's first started daily game of a day and level does; docs/security.md).
     */
    @Column(name = "daily_practice")
    public boolean dailyPractice;

    @Column(name = "owner_subject")
    public String ownerSubject;

    @Column(name = "owner_name")
    public String ownerName;

    /** SHA-256 (hex) of a guest's game token; null for a logged-in player's game. */
    @Column(name = "guest_token_hash")
    public String guestTokenHash;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public Status status;

    @Column(nullable = false)
    public int score;

    @Column(nullable = false)
    public boolean assisted;

    @Column(name = "event_count", nullable = false)
    public int eventCount;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    @Column(name = "finished_at")
    public OffsetDateTime finishedAt;

    /** The match this game is part of; null for a solo game. */
    @Column(name = "match_id")
    public UUID matchId;

    /** Its seat in the match: 0 the person (or first player), 1 the AI (or second player). */
    public Integer seat;

    /**
     * Online race: the last time its player was known to be there, by the database's clock. Written only by
     * {@link #seen} (never by an entity update), so a heartbeat and a move never overwrite each other.
     */
    @Column(name = "last_seen_at", insertable = false, updatable = false)
    public OffsetDateTime lastSeenAt;

    /** Online race: when the game was resigned for its player because they had gone (see RaceReaper). */
    @Column(name = "left_at")
    public OffsetDateTime leftAt;

    /**
     * Marks the players of these games as there now (database clock): only online-race games still playing, and
     * never waiting for a row another transaction holds (a move in progress refreshes its game itself; a reaper
     * holding it has already decided). Answers how many rows were marked.
     */
    public static int seen(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        return getEntityManager().createNativeQuery(SEEN.formatted("id IN (:ids)")).setParameter("ids", ids)
                .executeUpdate();
    }

    /**
     * {@link #seen} on a connection of the caller's (autocommit): the race heartbeat's, outside the pool, so that a
     * pool kept full by requests does not stop the players of this replica's sockets being marked seen (the other
     * replicas' reapers would resign them).
     */
    public static int seen(Connection c, Collection<UUID> ids) throws SQLException {
        if (ids.isEmpty()) {
            return 0;
        }
        try (PreparedStatement update = c.prepareStatement(SEEN.formatted("id = ANY(?)"))) {
            update.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            update.setQueryTimeout(5);
            return update.executeUpdate();
        }
    }

    /** {@link #seen}'s statement, {@code %s} the condition on the ids. */
    private static final String SEEN = "UPDATE game SET last_seen_at = now() WHERE id IN (SELECT id FROM game WHERE %s "
            + "AND mode = 'ONLINE_RACE' AND status = 'PLAYING' ORDER BY id FOR UPDATE SKIP LOCKED)";

    /** SQL: player {@code :s}'s daily game of day {@code :d} and level {@code :l}, in play, that still counts. */
    private static final String COUNTING_DAILY_IN_PLAY = "owner_subject = :s AND daily_day = :d AND level = :l "
            + "AND seed_source = 'DAILY' AND status = 'PLAYING' AND NOT daily_practice";

    /** The player's daily game of that day and level that still counts (not practice) and is in play, or null. */
    public static UUID countingDailyInPlay(String subject, LocalDate day, Level level) {
        List<?> ids = getEntityManager().createNativeQuery("SELECT id FROM game WHERE " + COUNTING_DAILY_IN_PLAY
                + " LIMIT 1")
                .setParameter("s", subject).setParameter("d", day).setParameter("l", level.name()).getResultList();
        return ids.isEmpty() ? null : (UUID) ids.get(0);
    }

    /**
     * Makes the player's daily games of that day and level still in play practice (another daily game of theirs of
     * that day and level begins): a game in play could otherwise be played, and counted, after the new one had shown
     * its pieces with hints and undos. Waits for a move in progress on one of them: one that ends its game first
     * leaves it as it ended (not in play when this reads it again), so it counted, having ended before the new game
     * began. Answers how many games were marked.
     */
    public static int practiceDailiesInPlay(String subject, LocalDate day, Level level) {
        return getEntityManager().createNativeQuery("UPDATE game SET daily_practice = true WHERE "
                + COUNTING_DAILY_IN_PLAY)
                .setParameter("s", subject).setParameter("d", day).setParameter("l", level.name()).executeUpdate();
    }

    /**
     * The levels of which a player started a daily game on a day, each with whether one of those games has ended: the
     * levels they already started, and finished, that day.
     */
    public static Map<Level, Boolean> dailyLevels(String subject, LocalDate day) {
        Map<Level, Boolean> levels = new EnumMap<>(Level.class);
        for (Object[] row : getEntityManager().createQuery("SELECT g.level, "
                + "MAX(CASE WHEN g.status <> :playing THEN 1 ELSE 0 END) FROM GameEntity g WHERE g.ownerSubject = :s "
                + "AND g.dailyDay = :d AND g.seedSource = :daily GROUP BY g.level", Object[].class)
                .setParameter("s", subject).setParameter("d", day).setParameter("daily", SeedSource.DAILY)
                .setParameter("playing", Status.PLAYING).getResultList()) {
            levels.put((Level) row[0], ((Number) row[1]).intValue() == 1);
        }
        return levels;
    }

    public boolean finished() {
        return status != Status.PLAYING;
    }
}
