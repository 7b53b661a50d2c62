package com.bloceclat.game.service;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.config.GameConfig;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * What one client may have open at once (docs/game-service.md "Limits"): versus-AI matches (each one the AI's solver
 * searches at its pace) and games being played; and how many games it may start within a window, however they end (a
 * loop that starts a game and resigns it holds nothing open). A client is a guest's address or a player's subject
 * ({@link com.bloceclat.common.security.ClientKey}). The counts are the database's, so every replica applies one
 * limit; {@link #reserve} takes a transaction-scoped advisory lock on the client, so two concurrent starts of one
 * client are counted one after the other. A game left without a move for {@code bloc.limits.open-for} no longer
 * counts as open; a versus-AI match counts until it has finished (its AI plays on after its person's game has ended).
 * Past a limit the start is refused: 429 with {@code Retry-After}, the time until the least recently played of the
 * client's open games stops counting if nothing is played, or until enough of its starts have left the window.
 * Every time compared is this service's clock (the rows' times are written from it), not the database's.
 */
@ApplicationScoped
public class ClientLimits {

    /**
     * What a client is about to start; the {@code start} of {@code game_limits_refused_total}. LINK_MAKER is the maker's
     * game of a private race, started when someone else opens their link (a refusal is that person's 409). RACE_JOIN
     * is a join of the race queue: the player's race tickets in the window count among their starts, so that a loop
     * of joins and leaves, which starts no game, is bounded too (each left a ticket row).
     */
    public enum Start {
        GAME(1, 0), TWO_PLAYER_MATCH(2, 0), AI_MATCH(1, 1), LINK_MAKER(1, 0), RACE_JOIN(1, 0);

        final int games;
        final int aiMatches;

        Start(int games, int aiMatches) {
            this.games = games;
            this.aiMatches = aiMatches;
        }
    }

    /** A refusal: what limit, and in how many seconds a place frees itself at the latest. */
    public record Refusal(String detail, long retryAfterSeconds) {
    }

    /** The prefix of a logged-in client's key ({@code ClientKey.ofSubject}). */
    private static final String SUBJECT = "subject:";

    @Inject
    GameConfig.Limits limits;

    @Inject
    MeterRegistry metrics;

    /**
     * Within the caller's transaction (the one that then creates the games): locks the client, and refuses the start
     * if it would go past a limit. The caller's own start: if another start of the client holds its lock, this one is
     * refused at once (429, {@code Retry-After: 1}) rather than waiting for it, so that a client's starts sent all at
     * once cannot each hold a pool connection while they wait in turn (fifty of them filled the replica's pool, and
     * every other client's request waited for a connection, then got 503).
     *
     * @throws WebApplicationException 429 with Retry-After and the limit in words
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void reserve(String clientKey, Start start) {
        if (!AdvisoryLocks.tryTake(GameEntity.getEntityManager(), clientKey)) {
            metrics.counter("game.limits.refused", "start", start.name(), "limit", "busy").increment();
            throw new WebApplicationException("Another start of this client is being made: one at a time; try again "
                    + "in a second.", Response.status(429).header("Retry-After", 1).build());
        }
        count(clientKey, start);
    }

    /**
     * {@link #reserve} for a client other than the caller (the maker of a private race, whose game starts when someone
     * opens their link): waits for that client's lock, held by a start of theirs, which is quick and theirs to send.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void reserveWaiting(String clientKey, Start start) {
        AdvisoryLocks.await(GameEntity.getEntityManager(), clientKey);
        count(clientKey, start);
    }

    /** Counts what the client holds, under its lock, and refuses the start past a limit. */
    private void count(String clientKey, Start start) {
        var em = GameEntity.getEntityManager();
        Bounds bounds = Bounds.of(limits);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        OffsetDateTime openSince = now.minus(bounds.openFor());
        Object[] games = (Object[]) em.createNativeQuery("SELECT count(*), min(updated_at) FROM game "
                + "WHERE client_key = :key AND status = 'PLAYING' AND updated_at > :since")
                .setParameter("key", clientKey).setParameter("since", openSince)
                .getSingleResult();
        // a match whose person's game has ended counts while its AI plays on (to the score to beat): its searches go on
        Object[] matches = (Object[]) em.createNativeQuery("SELECT count(*), "
                + "min(g.updated_at) FILTER (WHERE g.status = 'PLAYING') FROM game g "
                + "JOIN match m ON m.id = g.match_id WHERE g.client_key = :key AND g.mode = 'VERSUS_AI' "
                + "AND g.seat = 0 AND m.status = 'PLAYING' "
                + "AND (g.status <> 'PLAYING' OR g.updated_at > :since)")
                .setParameter("key", clientKey).setParameter("since", openSince)
                .getSingleResult();
        // every game the client started in the window, however it ended, oldest first (index game_client_started;
        // no more rows than the limit allows, but for a race's waiting player: docs/game-service.md "Limits")
        // and for a join of the race queue, the player's race tickets too (index race_ticket_subject_created)
        boolean tickets = start == Start.RACE_JOIN && clientKey.startsWith(SUBJECT);
        var startsQuery = em.createNativeQuery("SELECT created_at FROM game WHERE client_key = :key "
                + "AND created_at > :since" + (tickets ? " UNION ALL SELECT created_at FROM race_ticket "
                        + "WHERE subject = :subject AND created_at > :since" : "") + " ORDER BY created_at")
                .setParameter("key", clientKey).setParameter("since", now.minus(bounds.startsWindow()));
        if (tickets) {
            startsQuery.setParameter("subject", clientKey.substring(SUBJECT.length()));
        }
        List<OffsetDateTime> starts = ((List<?>) startsQuery.getResultList()).stream().map(ClientLimits::time)
                .toList();
        Held held = new Held(((Number) games[0]).intValue(), time(games[1]), ((Number) matches[0]).intValue(),
                time(matches[1]), starts);
        Refusal refusal = decide(start, held, now, bounds);
        if (refusal != null) {
            metrics.counter("game.limits.refused", "start", start.name(), "limit", "held").increment();
            throw new WebApplicationException(refusal.detail(), Response.status(429)
                    .header("Retry-After", refusal.retryAfterSeconds()).build());
        }
    }

    /** Marks the client's games of what was just started (in the same transaction) as theirs. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void started(String clientKey, UUID gameId, UUID matchId) {
        var em = GameEntity.getEntityManager();
        em.flush();
        if (matchId != null) {
            em.createNativeQuery("UPDATE game SET client_key = :key WHERE match_id = :match "
                    + "AND (owner_subject IS NOT NULL OR guest_token_hash IS NOT NULL)")
                    .setParameter("key", clientKey).setParameter("match", matchId).executeUpdate();
        } else {
            em.createNativeQuery("UPDATE game SET client_key = :key WHERE id = :id")
                    .setParameter("key", clientKey).setParameter("id", gameId).executeUpdate();
        }
    }

    /**
     * What a client holds when it starts something: {@code openGames} and {@code openAiMatches} open, {@code oldestGame}
     * and {@code oldestAiMatch} the last move of the least recently played of them (null when none); {@code starts}
     * when each game it started within the starts' window was started, oldest first.
     */
    record Held(int openGames, OffsetDateTime oldestGame, int openAiMatches, OffsetDateTime oldestAiMatch,
                List<OffsetDateTime> starts) {
    }

    /** The limits {@link #decide} applies ({@code bloc.limits}). */
    record Bounds(int games, int aiMatches, Duration openFor, int starts, Duration startsWindow) {
        static Bounds of(GameConfig.Limits limits) {
            return new Bounds(limits.gamesPerClient(), limits.aiMatchesPerClient(), limits.openFor(),
                    limits.startsPerClient(), limits.startsWindow());
        }
    }

    /** The decision, pure (ClientLimitsTest): null to go ahead, else the refusal. */
    static Refusal decide(Start start, Held held, OffsetDateTime now, Bounds bounds) {
        Duration openFor = bounds.openFor();
        if (start.aiMatches > 0 && held.openAiMatches() + start.aiMatches > bounds.aiMatches()) {
            return new Refusal("Too many versus-AI matches open: at most " + bounds.aiMatches() + " at once per client. "
                    + "Finish or resign one first; one left without a move for " + words(openFor)
                    + " no longer counts, and one whose AI plays on to your score counts until it has beaten it or "
                    + "is blocked.", retryAfter(held.oldestAiMatch(), now, openFor));
        }
        if (held.openGames() + start.games > bounds.games()) {
            return new Refusal("Too many games open: at most " + bounds.games() + " at once per client. Finish or "
                    + "resign one first; one left without a move for " + words(openFor) + " no longer counts.",
                    retryAfter(held.oldestGame(), now, openFor));
        }
        // open games are bounded above, but a start-and-resign loop holds none open: how often one starts is bounded
        // here, or each start's rows (and its messages, signature and leaderboard audit) pile up without end
        int over = held.starts().size() + start.games - bounds.starts();
        if (over > 0) {
            // the start goes once that many starts have left the window: a two-players match needs two places (more
            // than the window holds: a limit below what the start needs, so a whole window)
            OffsetDateTime leaving = over <= held.starts().size() ? held.starts().get(over - 1) : null;
            return new Refusal("Too many games started: at most " + bounds.starts() + " in " + words(bounds.startsWindow())
                    + " per client, finished or not.", retryAfter(leaving, now, bounds.startsWindow()));
        }
        return null;
    }

    private static long retryAfter(OffsetDateTime oldest, OffsetDateTime now, Duration openFor) {
        if (oldest == null) {
            return Math.max(1, openFor.toSeconds());
        }
        return Math.max(1, Duration.between(now, oldest.plus(openFor)).toSeconds() + 1);
    }

    private static String words(Duration d) {
        return d.toMinutes() >= 1 && d.toSecondsPart() == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
    }

    /** A timestamp as the driver hands it over (its type depends on the query), as an OffsetDateTime; null stays null. */
    private static OffsetDateTime time(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof OffsetDateTime o) {
            return o;
        }
        if (value instanceof java.time.Instant i) {
            return i.atOffset(java.time.ZoneOffset.UTC);
        }
        if (value instanceof java.sql.Timestamp t) {
            return t.toInstant().atOffset(java.time.ZoneOffset.UTC);
        }
        throw new IllegalStateException("unexpected timestamp type " + value.getClass());
    }
}
