package com.bloceclat.leaderboard;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import com.bloceclat.leaderboard.service.Period;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Sort;

/**
 * A game the {@link com.bloceclat.leaderboard.service.RecordPolicy} made a record: on its level's boards ({@code day}
 * null, one per level and seed) or on one day's daily board (one per day, level and player), both enforced by unique
 * indexes. Leaderboards rank records by score, then the earlier game, then the game id; a struck record stays here,
 * out of every leaderboard.
 */
@Entity
@Table(name = "game_record")
public class GameRecord extends PanacheEntityBase {

    /** Best first: the order of every leaderboard, and of a player's records. */
    public static final Sort RANKING = Sort.descending("score").and("finishedAt").and("gameId");

    @Id
    @Column(name = "game_id")
    public UUID gameId;

    @Column(nullable = false)
    public String level;

    @Column(name = "player_subject", nullable = false)
    public String playerSubject;

    @Column(name = "player_name", nullable = false)
    public String playerName;

    /** The replay's seed (null only for a duplicate struck by migration V4). */
    public Long seed;

    /** The day of a daily-board record; null for a level-board record. */
    public LocalDate day;

    @Column(nullable = false)
    public int score;

    @Column(nullable = false)
    public int rounds;

    @Column(name = "finished_at", nullable = false)
    public OffsetDateTime finishedAt;

    @Column(name = "struck_at")
    public OffsetDateTime struckAt;

    @Column(name = "struck_by")
    public String struckBy;

    @Column(name = "strike_reason", columnDefinition = "text")
    public String strikeReason;

    public static GameRecord of(UUID gameId, String level, Long seed, LocalDate day, String playerSubject,
            String playerName, int score, int rounds, OffsetDateTime finishedAt) {
        GameRecord record = new GameRecord();
        record.gameId = gameId;
        record.level = level;
        record.seed = seed;
        record.day = day;
        record.playerSubject = playerSubject;
        record.playerName = playerName;
        record.score = score;
        record.rounds = rounds;
        record.finishedAt = finishedAt;
        return record;
    }

    /** The record of an audited game, on the daily board of {@code day} or (null) on its level's boards. */
    public static GameRecord of(GameAudit audit, LocalDate day) {
        return of(audit.gameId, audit.level, audit.seed, day, audit.playerSubject, audit.playerName, audit.score,
                audit.rounds, audit.finishedAt);
    }

    /** The game whose level-board record (struck or not) has this level and seed, other than {@code except}. */
    public static UUID holderOfSeed(String level, Long seed, UUID except) {
        if (level == null || seed == null) {
            return null;
        }
        return getEntityManager().createQuery("select r.gameId from GameRecord r where r.level = :level "
                + "and r.seed = :seed and r.day is null and r.gameId <> :except", UUID.class)
                .setParameter("level", level).setParameter("seed", seed).setParameter("except", except)
                .getResultStream().findFirst().orElse(null);
    }

    /** The game that is the player's daily record (struck or not) of that day and level, other than {@code except}. */
    public static UUID holderOfDaily(String subject, LocalDate day, String level, UUID except) {
        if (subject == null || day == null || level == null) {
            return null;
        }
        return getEntityManager().createQuery("select r.gameId from GameRecord r where r.day = :day "
                + "and r.level = :level and r.playerSubject = :subject and r.gameId <> :except", UUID.class)
                .setParameter("day", day).setParameter("level", level).setParameter("subject", subject)
                .setParameter("except", except)
                .getResultStream().findFirst().orElse(null);
    }

    /** The standing records of a day's daily board of a level, best first. */
    public static List<GameRecord> dailyOf(String level, LocalDate day, int offset, int limit) {
        return find("level = ?1 and day = ?2 and struckAt is null", RANKING, level, day)
                .range(offset, offset + limit - 1).list();
    }

    /** A player's standing daily record of a day and level, or null. */
    public static GameRecord dailyOf(String subject, String level, LocalDate day) {
        return find("playerSubject = ?1 and level = ?2 and day = ?3 and struckAt is null", subject, level, day)
                .firstResult();
    }

    /** 1 + the standing records of this record's daily board ranked above it. */
    public long dailyRank() {
        long higher = count("level = ?1 and day = ?2 and struckAt is null and score > ?3", level, day, score);
        long earlier = count("level = ?1 and day = ?2 and struckAt is null and score = ?3 and (finishedAt < ?4 "
                + "or (finishedAt = ?4 and gameId < ?5))", level, day, score, finishedAt, gameId);
        return higher + earlier + 1;
    }

    public boolean struck() {
        return struckAt != null;
    }

    /** Back on the boards: a strike found wrong (made by a re-validation that a later one contradicts). */
    public void lift() {
        struckAt = null;
        struckBy = null;
        strikeReason = null;
    }

    public void strike(String by, String reason, OffsetDateTime at) {
        struckAt = at;
        struckBy = by;
        strikeReason = reason;
    }

    /**
     * The standing level-board records of a level in {@code period} (its UTC day or week starting on {@code start};
     * all time for {@link Period#ALL}), best first. Today's and this week's boards read their period's bucket along
     * its own index ({@code game_record_top_day}, {@code game_record_top_week}, V7), so a page reads its rows and no
     * more: filtered by the time it finished instead, a page read every record of all time ranked above it, or every
     * record of the period (docs/benchmarks.md "leaderboard-service").
     */
    @SuppressWarnings("unchecked")
    public static List<GameRecord> topOf(String level, Period period, LocalDate start, int offset, int limit) {
        if (period == Period.ALL) {
            return find("level = :level and struckAt is null and day is null", RANKING, Map.of("level", level))
                    .range(offset, offset + limit - 1).list();
        }
        return getEntityManager().createNativeQuery(topSql(period), GameRecord.class)
                .setParameter("level", level).setParameter("start", start)
                .setFirstResult(offset).setMaxResults(limit).getResultList();
    }

    /** The statement of a period's board ({@link #topOf}), with {@code :level} and {@code :start}. */
    static String topSql(Period period) {
        return "SELECT * FROM game_record WHERE " + standingIn(period) + " ORDER BY score DESC, finished_at, game_id";
    }

    /**
     * A period's bucket of a level's standing level-board records, as SQL with {@code :level} and {@code :start}: the
     * expressions of the indexes {@code game_record_top_day} and {@code game_record_top_week} (V7; {@code CAST} is
     * PostgreSQL's {@code ::}, the same expression), so that PostgreSQL uses them.
     */
    private static String standingIn(Period period) {
        return "level = :level AND struck_at IS NULL AND day IS NULL AND " + bucket(period) + " = :start";
    }

    /** The UTC day or week (from Monday) a record finished in: the expression of every period index (V7, V9). */
    private static String bucket(Period period) {
        return switch (period) {
            case TODAY -> "CAST(finished_at AT TIME ZONE 'UTC' AS date)";
            case WEEK -> "CAST(date_trunc('week', finished_at AT TIME ZONE 'UTC') AS date)";
            case ALL -> throw new IllegalArgumentException("all time has no bucket");
        };
    }

    /**
     * A player's best standing record of a level in {@code period} (its UTC day or week starting on {@code start}, as
     * the boards count it: {@link #rank} ranks it in the same bucket), or null. Along an index that ends in the
     * boards' order ({@code game_record_player_all}, {@code _day}, {@code _week}, V9), so it reads one row however many
     * records the player holds: before, a period's best read every record of the player's, and the all-time best
     * every record of its top score (a looping account's records all score the same).
     */
    @SuppressWarnings("unchecked")
    public static GameRecord bestOf(String subject, String level, Period period, LocalDate start) {
        return ((List<GameRecord>) standingOf(bestSql(period), subject, level, period, start, GameRecord.class)
                .getResultList()).stream().findFirst().orElse(null);
    }

    /** The most records {@link #countOf} counts: a player holding more reads as this many. */
    public static final int COUNTED_UP_TO = 10_000;

    /**
     * How many standing records a player holds on a level in {@code period}, up to {@link #COUNTED_UP_TO}: so that a
     * public lookup of an account that loops records (docs/security.md "Not bounded") reads at most that many index
     * entries, not all of them.
     */
    public static long countOf(String subject, String level, Period period, LocalDate start) {
        return ((Number) standingOf(countSql(period), subject, level, period, start, null)
                .setParameter("most", COUNTED_UP_TO).getSingleResult()).longValue();
    }

    /** The statement of {@link #bestOf}, with {@code :subject}, {@code :level} and (for a period) {@code :start}. */
    static String bestSql(Period period) {
        return "SELECT * FROM game_record WHERE " + playersIn(period) + " ORDER BY score DESC, finished_at, game_id "
                + "LIMIT 1";
    }

    /** The statement of {@link #countOf}: {@link #bestSql}'s parameters and {@code :most}. */
    static String countSql(Period period) {
        return "SELECT count(*) FROM (SELECT 1 FROM game_record WHERE " + playersIn(period) + " LIMIT :most) counted";
    }

    private static jakarta.persistence.Query standingOf(String sql, String subject, String level, Period period,
            LocalDate start, Class<?> type) {
        var query = type == null ? getEntityManager().createNativeQuery(sql)
                : getEntityManager().createNativeQuery(sql, type);
        query.setParameter("subject", subject).setParameter("level", level);
        return period == Period.ALL ? query : query.setParameter("start", start);
    }

    /**
     * A player's standing level-board records of a level, as SQL: all of them, or those of a period's bucket (finished
     * in its UTC day or week, as the boards count them, so that a record finished a little ahead, by game-service's
     * clock within the clock skew, counts in the bucket it is ranked and listed in).
     */
    private static String playersIn(Period period) {
        String all = "player_subject = :subject AND level = :level AND struck_at IS NULL AND day IS NULL";
        return period == Period.ALL ? all : all + " AND " + bucket(period) + " = :start";
    }

    /**
     * 1 + the number of standing records of the level (in {@code period}, starting on {@code start}) ranked above this
     * one: those with a higher score, then those with the same score and an earlier game. Two counts, so that each
     * reads a range of {@code game_record_top} (all time) or of the period's bucket index.
     */
    public long rank(Period period, LocalDate start) {
        if (period == Period.ALL) {
            Map<String, Object> params = new HashMap<>();
            params.put("level", level);
            params.put("score", score);
            long higher = count("level = :level and struckAt is null and day is null and score > :score", params);
            params.put("finishedAt", finishedAt);
            params.put("gameId", gameId);
            long earlier = count("level = :level and struckAt is null and day is null and score = :score "
                    + "and (finishedAt < :finishedAt or (finishedAt = :finishedAt and gameId < :gameId))", params);
            return higher + earlier + 1;
        }
        String bucket = standingIn(period);
        long higher = ((Number) getEntityManager().createNativeQuery("SELECT count(*) FROM game_record WHERE " + bucket
                + " AND score > :score").setParameter("level", level).setParameter("start", start)
                .setParameter("score", score).getSingleResult()).longValue();
        long earlier = ((Number) getEntityManager().createNativeQuery("SELECT count(*) FROM game_record WHERE " + bucket
                + " AND score = :score AND (finished_at < :finishedAt OR (finished_at = :finishedAt AND game_id < "
                + ":gameId))").setParameter("level", level).setParameter("start", start).setParameter("score", score)
                .setParameter("finishedAt", finishedAt).setParameter("gameId", gameId).getSingleResult()).longValue();
        return higher + earlier + 1;
    }
}
