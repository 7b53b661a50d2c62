package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.game.config.GameConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;

/**
 * The claim pass of {@link AiDriver} (its class comment has the guarantees): every {@code bloc.ai.poll}, by the Quarkus
 * scheduler (never two passes at once), claims the AI games due before the next pass that no replica holds, as many
 * as the replica has room for, and hands each to the driver, which plays its turns. A stop waits for a pass in
 * flight, so that the leases it took are released with the others.
 */
@ApplicationScoped
public class AiClaims {

    private static final Logger LOG = Logger.getLogger(AiClaims.class);

    /** The pass's name for the scheduler and in {@code bloc_job_failures_total{job}}. */
    public static final String JOB = "ai-claims";

    @Inject
    GameConfig.Ai config;

    @Inject
    AiLeases leases;

    @Inject
    AiDriver driver;

    @Inject
    MeterRegistry metrics;

    /** Held by a pass: the stop waits for one in flight. */
    private final ReentrantLock claiming = new ReentrantLock();
    /** The last pass claimed all it could: there may be due games this replica had no room for. */
    private volatile boolean unmet;

    /** Whether the last pass left due games unclaimed for want of room: demand the replica does not meet. */
    boolean unmet() {
        return unmet;
    }

    @Scheduled(identity = JOB, every = "${bloc.ai.poll:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void claimDue() {
        if (!claiming.tryLock()) {
            return; // the stop holds it (a pass of the scheduler's never runs beside another: SKIP)
        }
        try {
            if (driver.running()) { // false from the start of the driver's stop, which then calls ours
                claimDueNow();
            }
        } finally {
            claiming.unlock();
        }
    }

    private void claimDueNow() {
        try {
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            OffsetDateTime dueBy = now.minus(config.pace()).plus(config.poll());
            int budget = driver.room();
            List<AiLeases.Claim> claims = leases.claim(driver.holder(), dueBy, config.poll(), config.pace(),
                    config.lease(), budget);
            // games may be left unclaimed for want of capacity: that is demand, as turns waiting for a permit are
            unmet = claims.size() >= budget;
            for (AiLeases.Claim c : claims) {
                OffsetDateTime due = c.updatedAt().plus(config.pace());
                if (c.parkedUntil() != null && c.parkedUntil().isAfter(due)) {
                    due = c.parkedUntil();
                }
                driver.hold(new AiTurn(c.gameId(), due, c.parkedUntil() != null, null));
            }
        } catch (RuntimeException e) {
            // counted: a pass failing pass after pass leaves the AI games it would claim without moves
            JobFailures.count(metrics, JOB);
            LOG.warnf("AI claim failed (%s); the next pass retries", e.getMessage());
        }
    }

    /**
     * The driver's stop, once it no longer runs (so no pass claims any more): waits (within a bound) for a pass in
     * flight, then releases every lease this replica holds.
     */
    void stop() {
        boolean locked = false;
        try {
            locked = claiming.tryLock(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            int released = leases.releaseAll(driver.holder());
            LOG.infof("AI driver stopped: %d AI games released", released);
        } catch (RuntimeException e) {
            LOG.warnf("AI driver could not release its leases (%s): they run out by themselves", e.getMessage());
        } finally {
            if (locked) {
                claiming.unlock();
            }
        }
    }
}
