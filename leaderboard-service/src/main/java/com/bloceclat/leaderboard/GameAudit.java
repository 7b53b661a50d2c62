package com.bloceclat.leaderboard;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import com.bloceclat.leaderboard.service.Verdict;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** Every game received, whatever became of it, with the replay as received and the validator's trace. */
@Entity
@Table(name = "game_audit")
public class GameAudit extends PanacheEntityBase {

    @Id
    @Column(name = "game_id")
    public UUID gameId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public Outcome outcome;

    @Column(columnDefinition = "text")
    public String reason;

    @Column(name = "player_subject")
    public String playerSubject;

    @Column(name = "player_name")
    public String playerName;

    @Column(nullable = false)
    public String mode;

    /** SERVER, DAILY or CHOSEN, as game-service signed it; null for a game received before schema 2. */
    @Column(name = "seed_source")
    public String seedSource;

    /** The UTC day of a daily-challenge game, else null. */
    public LocalDate day;

    /**
     * A daily game its player started after another daily game of that day and level, as game-service signed it: it
     * never counts (docs/leaderboard-service.md).
     */
    public boolean practice;

    /** When the game was created (null before schema 2). */
    @Column(name = "created_at")
    public OffsetDateTime createdAt;

    public String level;

    public Long seed;

    @Column(name = "claimed_score")
    public Integer claimedScore;

    @Column(nullable = false)
    public int score;

    @Column(nullable = false)
    public int rounds;

    @Column(name = "valid_events", nullable = false)
    public int validEvents;

    @Column(nullable = false)
    public boolean assisted;

    @Column(name = "game_over", nullable = false)
    public boolean gameOver;

    @Column(name = "finished_at", nullable = false)
    public OffsetDateTime finishedAt;

    @Column(name = "published_at")
    public OffsetDateTime publishedAt;

    @Column(name = "processed_at", nullable = false)
    public OffsetDateTime processedAt;

    @Column(nullable = false, columnDefinition = "text")
    public String replay;

    @Column(nullable = false, columnDefinition = "text")
    public String trace;

    /** When the cheat detector measured this record; null until then (and for games it does not measure). */
    @Column(name = "suspicion_checked_at")
    public OffsetDateTime suspicionCheckedAt;

    /** The share of compared rounds played exactly as the full-strength AI would have, or null. */
    @Column(name = "ai_agreement")
    public Float aiAgreement;

    @Column(name = "compared_rounds")
    public Integer comparedRounds;

    /** Flagged by the cheat detector; the record stays on the leaderboards until an admin strikes it. */
    @Column(nullable = false)
    public boolean suspicious;

    /**
     * Stores the verdict on a game unless the game is already known, in which case nothing changes (a redelivered
     * or duplicated message). Returns whether it was stored.
     */
    public static boolean storeOnce(UUID gameId, String playerSubject, String playerName, String mode,
            String seedSource, LocalDate day, boolean practice, OffsetDateTime createdAt, OffsetDateTime finishedAt,
            OffsetDateTime publishedAt, OffsetDateTime processedAt, String replay, Verdict verdict) {
        return getEntityManager().createNativeQuery("""
                INSERT INTO game_audit (game_id, outcome, reason, player_subject, player_name, mode, seed_source, day,
                    practice, created_at, level, seed, claimed_score, score, rounds, valid_events, assisted, game_over,
                    finished_at, published_at, processed_at, replay, trace)
                VALUES (:gameId, :outcome, :reason, :playerSubject, :playerName, :mode, :seedSource, :day,
                    :practice, :createdAt, :level, :seed, :claimedScore, :score, :rounds, :validEvents, :assisted, :gameOver,
                    :finishedAt, :publishedAt, :processedAt, :replay, :trace)
                ON CONFLICT (game_id) DO NOTHING
                """)
                .setParameter("gameId", gameId)
                .setParameter("outcome", verdict.outcome().name())
                .setParameter("reason", verdict.reason())
                .setParameter("playerSubject", playerSubject)
                .setParameter("playerName", playerName)
                .setParameter("mode", mode)
                .setParameter("seedSource", seedSource)
                .setParameter("day", day)
                .setParameter("practice", practice)
                .setParameter("createdAt", createdAt)
                .setParameter("level", verdict.level())
                .setParameter("seed", verdict.seed())
                .setParameter("claimedScore", verdict.claimedScore())
                .setParameter("score", verdict.score())
                .setParameter("rounds", verdict.rounds())
                .setParameter("validEvents", verdict.validEvents())
                .setParameter("assisted", verdict.assisted())
                .setParameter("gameOver", verdict.gameOver())
                .setParameter("finishedAt", finishedAt)
                .setParameter("publishedAt", publishedAt)
                .setParameter("processedAt", processedAt)
                .setParameter("replay", replay)
                .setParameter("trace", verdict.traceText())
                .executeUpdate() == 1;
    }

    /** Takes a new verdict on this game (re-validation); the replay and the player stay as received. */
    public void judged(Verdict verdict) {
        outcome = verdict.outcome();
        reason = verdict.reason();
        level = verdict.level();
        seed = verdict.seed();
        claimedScore = verdict.claimedScore();
        score = verdict.score();
        rounds = verdict.rounds();
        validEvents = verdict.validEvents();
        assisted = verdict.assisted();
        gameOver = verdict.gameOver();
        trace = verdict.traceText();
    }

    /**
     * An audit as the admin list shows it: every column but the replay and the trace, and whether its record (if it
     * has one) was struck.
     */
    public record Listed(UUID gameId, Outcome outcome, String reason, String level, String mode, String playerSubject,
            String playerName, int score, Integer claimedScore, int rounds, boolean assisted, boolean gameOver,
            OffsetDateTime finishedAt, OffsetDateTime processedAt, boolean suspicious, Float aiAgreement,
            Integer comparedRounds, OffsetDateTime suspicionCheckedAt, String seedSource, LocalDate day,
            boolean practice, OffsetDateTime createdAt, boolean struck) {

        public static Listed of(GameAudit a, boolean struck) {
            return new Listed(a.gameId, a.outcome, a.reason, a.level, a.mode, a.playerSubject, a.playerName, a.score,
                    a.claimedScore, a.rounds, a.assisted, a.gameOver, a.finishedAt, a.processedAt, a.suspicious,
                    a.aiAgreement, a.comparedRounds, a.suspicionCheckedAt, a.seedSource, a.day, a.practice,
                    a.createdAt, struck);
        }
    }

    /** The columns of {@link Listed}, in its order, then the record's strike time. */
    private static final String LISTED = "a.gameId, a.outcome, a.reason, a.level, a.mode, a.playerSubject, "
            + "a.playerName, a.score, a.claimedScore, a.rounds, a.assisted, a.gameOver, a.finishedAt, a.processedAt, "
            + "a.suspicious, a.aiAgreement, a.comparedRounds, a.suspicionCheckedAt, a.seedSource, a.day, a.practice, "
            + "a.createdAt, r.struckAt";

    /**
     * Audits matching the filters (each may be null), newest game first, in one statement. Never the replay and the
     * trace, which a long game's are tens of megabytes of: before, a page of the admin list loaded them all (a page of
     * long games was more than a replica's heap), and read each record apart.
     */
    public static List<Listed> search(Outcome outcome, Boolean suspicious, String level, OffsetDateTime from,
            OffsetDateTime to, int offset, int limit) {
        List<String> where = new ArrayList<>();
        Map<String, Object> params = new HashMap<>();
        if (outcome != null) {
            where.add("a.outcome = :outcome");
            params.put("outcome", outcome);
        }
        if (suspicious != null) {
            where.add("a.suspicious = :suspicious");
            params.put("suspicious", suspicious);
        }
        if (level != null) {
            where.add("a.level = :level");
            params.put("level", level);
        }
        if (from != null) {
            where.add("a.finishedAt >= :from");
            params.put("from", from);
        }
        if (to != null) {
            where.add("a.finishedAt < :to");
            params.put("to", to);
        }
        var query = getEntityManager().createQuery("select " + LISTED + " from GameAudit a left join GameRecord r "
                + "on r.gameId = a.gameId" + (where.isEmpty() ? "" : " where " + String.join(" and ", where))
                + " order by a.finishedAt desc, a.gameId desc", Object[].class);
        params.forEach(query::setParameter);
        return query.setFirstResult(offset).setMaxResults(limit).getResultList().stream().map(r -> new Listed(
                (UUID) r[0], (Outcome) r[1], (String) r[2], (String) r[3], (String) r[4], (String) r[5],
                (String) r[6], (Integer) r[7], (Integer) r[8], (Integer) r[9], (Boolean) r[10], (Boolean) r[11],
                (OffsetDateTime) r[12], (OffsetDateTime) r[13], (Boolean) r[14], (Float) r[15], (Integer) r[16],
                (OffsetDateTime) r[17], (String) r[18], (LocalDate) r[19], (Boolean) r[20], (OffsetDateTime) r[21],
                r[22] != null)).toList();
    }

    /** A player's game as their list shows it; {@code struck}: a record an admin or a re-validation struck. */
    public record PlayerGame(UUID gameId, String level, String mode, Outcome outcome, String reason, int score,
            int rounds, OffsetDateTime finishedAt, boolean struck, LocalDate day, String seedSource) {
    }

    /**
     * A player's games, newest first: the columns the list shows and the record's strike, in one statement. Never the
     * replay and the trace, which a long game's are tens of megabytes of (before, a page of 100 loaded them all, and
     * read each record apart).
     */
    public static List<PlayerGame> ofPlayer(String subject, int offset, int limit) {
        List<Object[]> rows = getEntityManager().createQuery("select a.gameId, a.level, a.mode, a.outcome, a.reason, "
                + "a.score, a.rounds, a.finishedAt, r.struckAt, a.day, a.seedSource from GameAudit a "
                + "left join GameRecord r "
                + "on r.gameId = a.gameId where a.playerSubject = :subject order by a.finishedAt desc, a.gameId desc",
                Object[].class).setParameter("subject", subject).setFirstResult(offset).setMaxResults(limit)
                .getResultList();
        return rows.stream().map(r -> new PlayerGame((UUID) r[0], (String) r[1], (String) r[2], (Outcome) r[3],
                (String) r[4], (Integer) r[5], (Integer) r[6], (OffsetDateTime) r[7],
                r[3] == Outcome.RECORD && r[8] != null, (LocalDate) r[9], (String) r[10])).toList();
    }

    /**
     * For a daily game whose day (UTC) is not over: the midnight that ends it; null otherwise. Until then what the
     * validator said of it is withheld from every view, its player's own too: its words can name the day's pieces.
     */
    public static OffsetDateTime dayNotOver(LocalDate day, String seedSource) {
        if (day == null || !"DAILY".equals(seedSource)) {
            return null;
        }
        OffsetDateTime dayOver = day.plusDays(1).atStartOfDay().atOffset(ZoneOffset.UTC);
        return OffsetDateTime.now(ZoneOffset.UTC).isBefore(dayOver) ? dayOver : null;
    }

    public List<String> traceLines() {
        return trace.isEmpty() ? List.of() : List.of(trace.split("\n"));
    }
}
