package com.bloceclat.game.service;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.common.db.DatabaseFaults;
import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.config.GameConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/**
 * Ends online races for players who have gone. Every {@code bloc.race.heartbeat} (the Quarkus scheduler), on every
 * replica, each race game
 * still playing whose player has not been seen (an event, a request, an open match socket on any replica: see
 * {@link GameEntity#seen}) for longer than {@code bloc.race.disconnect-timeout} is resigned for them through
 * {@link GameService#resignIfGone}: the same resignation as the player's own (event, referee, messages), once, under
 * the game's row lock, so replicas share the work without ever both doing one. Everything it reads is in PostgreSQL,
 * so it goes on across restarts. A replica resigns nothing until it has reached the database for a whole timeout
 * ({@link #mayReap}): after its own start, for the sockets of players to come back after an outage of the whole
 * service; and after a pass that could not reach the database, since no replica's heartbeat could mark its players
 * seen meanwhile (before, an outage of the database longer than the timeout made every race in play look gone, and the
 * first pass after it resigned them). "Reached" means written to, not only read: a failed heartbeat of this replica,
 * or a resignation the database refuses as unavailable (read-only, full, away: {@link DatabaseFaults#unavailable}),
 * counts as a pass that did not reach it. Not covered: a replica with no race socket of its own learns of such an outage only from its own refused
 * resignations, so a pass of it that falls within a heartbeat of the writes' return may still resign a player whose
 * replica has not marked them seen yet.
 * <p>
 * In the same pass, a versus-AI match whose person's game has not changed for {@code bloc.limits.open-for} (30 min,
 * when it stops counting against its client) is ended by resigning that game ({@link GameService#resignIfIdle}): its
 * AI would otherwise wait at every round's end for ever, a claim and a question every pace, and a client leaving
 * matches behind would pile them up. So is an online race's game not changed for as long, or still playing as long
 * after the other seat ended: a player who keeps the match socket open is never gone, and could otherwise keep the
 * other seat, ended, from its result for ever (by never playing, or by a placement every 29 minutes).
 */
@ApplicationScoped
public class RaceReaper {

    private static final Logger LOG = Logger.getLogger(RaceReaper.class);

    @Inject
    GameConfig.Race config;

    @Inject
    GameService games;

    @Inject
    GameConfig.Limits limits;

    @Inject
    MeterRegistry metrics;

    /** The scheduler's identity of the pass. */
    public static final String JOB = "race-reaper";

    void start(@Observes StartupEvent event) {
        if (config.heartbeat().multipliedBy(2).compareTo(config.disconnectTimeout()) > 0) {
            throw new IllegalStateException("bloc.race.disconnect-timeout (" + config.disconnectTimeout()
                    + ") must be at least twice bloc.race.heartbeat (" + config.heartbeat() + ").");
        }
    }

    /**
     * One pass, by the Quarkus scheduler every heartbeat ({@code SKIP}: a pass still running is not joined by another),
     * which resigns nobody until {@link #mayReap}. A game that fails is logged and retried by the next pass.
     */
    @Scheduled(identity = JOB, every = "${bloc.race.heartbeat:5s}", delayed = "${bloc.race.heartbeat:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    public void tick() {
        try {
            List<UUID> gone = gone(); // reaches the database, or throws
            long now = System.nanoTime();
            if (reachedSince == null) {
                reachedSince = now;
            }
            if (!mayReap(reachedSince, now, config.disconnectTimeout())) {
                return;
            }
            reap(gone, id -> games.resignIfGone(id, config.disconnectTimeout()),
                    "Race game %s resigned: its player has been gone for over " + config.disconnectTimeout(),
                    "Race game %s: resigning a gone player failed (%s); the next pass retries");
            reap(idle(), id -> games.resignIfIdle(id, limits.openFor()),
                    "Versus-AI game %s resigned: its person has not played for over " + limits.openFor(),
                    "Versus-AI game %s: resigning an idle person failed (%s); the next pass retries");
            reap(idleRacers(), id -> games.resignIfIdle(id, limits.openFor()),
                    "Race game %s resigned: its player has not played, or the other seat ended, over "
                            + limits.openFor() + " ago",
                    "Race game %s: resigning an idle player failed (%s); the next pass retries");
        } catch (RuntimeException e) {
            JobFailures.count(metrics, JOB);
            unreached();
            LOG.warnf("Race reaper pass failed (%s); the next pass retries, and nothing is resigned until the "
                    + "database has been reached for %s", e.getMessage(), config.disconnectTimeout());
        }
    }

    /**
     * Since when (System.nanoTime) every pass of this replica has reached the database: from the first pass that did
     * after its start or after one that did not; null until then.
     */
    private volatile Long reachedSince;

    /** A pass could not reach the database: nothing is resigned until it has been reached for a whole timeout again. */
    public void unreached() {
        reachedSince = null;
    }

    /**
     * Whether a pass may resign anyone: only once the database has been reached for a whole {@code timeout} since
     * {@code reachedSince} (null: not reached yet), so that every replica's heartbeat has marked the players it holds
     * sockets of, and players whose pages lost their sockets have had the time to reconnect.
     */
    static boolean mayReap(Long reachedSince, long nowNanos, Duration timeout) {
        return reachedSince != null && nowNanos - reachedSince >= timeout.toNanos();
    }

    /**
     * Resigns each candidate that still qualifies under its lock ({@code resign} answers whether it did), logging
     * {@code resigned} (the game's id) or {@code failed} (the id and the reason): one that fails is left to the next
     * pass and never stops the others.
     */
    private void reap(List<UUID> candidates, Predicate<UUID> resign, String resigned, String failed) {
        for (UUID id : candidates) {
            try {
                if (resign.test(id)) {
                    LOG.infof(resigned, id);
                }
            } catch (RuntimeException e) {
                LOG.warnf(failed, id, e.getMessage());
                if (DatabaseFaults.unavailable(e)) {
                    // the database reads but does not take this write (read-only, full, failing): neither can any
                    // replica's heartbeat, so the players it would mark seen look gone; the pass stops, and the
                    // next ones resign nobody for a whole timeout after the writes come back. A conflict with other
                    // work (a deadlock, a lock) or a busy pool is this resignation's alone: the pass goes on
                    throw e;
                }
            }
        }
    }

    /**
     * Versus-AI persons' games idle past open-for while their AI still plays (an AI that has ended waits for nobody,
     * and its person may come back to beat its score), read without locks; each is checked again under its lock.
     * Driven from the AI games still playing (index {@code game_ai_playing}), then each match's seat 0
     * ({@code game_match}).
     */
    private List<UUID> idle() {
        return candidates("SELECT g.id FROM game a JOIN game g ON g.match_id = a.match_id AND g.seat = 0 "
                + "JOIN match m ON m.id = a.match_id WHERE a.mode = 'VERSUS_AI' AND a.seat = 1 "
                + "AND a.status = 'PLAYING' AND g.status = 'PLAYING' AND m.status = 'PLAYING' "
                + "AND " + Resignations.IDLE + " "
                + "ORDER BY g.updated_at LIMIT 100", limits.openFor());
    }

    /**
     * Online races' games idle past open-for, or still playing open-for after the other seat ended, read without
     * locks; each is checked again under its lock.
     */
    private List<UUID> idleRacers() {
        return candidates("SELECT g.id FROM game g JOIN match m ON m.id = g.match_id WHERE g.mode = 'ONLINE_RACE' "
                + "AND g.status = 'PLAYING' AND m.status = 'PLAYING' "
                + "AND (" + Resignations.IDLE + " OR " + Resignations.OTHER_ENDED + ") "
                + "ORDER BY g.updated_at LIMIT 100", limits.openFor());
    }

    /** Candidates, read without locks; each is checked again under its lock. */
    private List<UUID> gone() {
        return candidates("SELECT g.id FROM game g JOIN match m ON m.id = g.match_id WHERE g.mode = 'ONLINE_RACE' "
                + "AND g.status = 'PLAYING' AND m.status = 'PLAYING' "
                + "AND " + Resignations.GONE + " "
                + "ORDER BY g.created_at LIMIT 100", config.disconnectTimeout());
    }

    /** The game ids {@code sql} selects, its {@code :secs} set to {@code age}, in a transaction of their own. */
    private static List<UUID> candidates(String sql, Duration age) {
        return QuarkusTransaction.requiringNew().call(() -> GameEntity.getEntityManager().createNativeQuery(sql)
                .setParameter("secs", age.toMillis() / 1000.0).getResultList().stream()
                .map(UUID.class::cast).toList());
    }
}
