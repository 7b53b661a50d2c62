package com.bloceclat.game.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.game.live.RaceHeartbeat;
import com.bloceclat.game.live.SocketPings;
import com.bloceclat.game.messaging.OutboxBacklog;
import com.bloceclat.game.messaging.OutboxRelay;
import com.bloceclat.game.service.AiClaims;
import com.bloceclat.game.service.GameRetention;
import com.bloceclat.game.service.RaceReaper;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;

/**
 * game-service's scheduled jobs' failure counters, and the outbox's failed reads ({@code OutboxBacklog}), at zero from
 * the start ({@link JobFailures}).
 */
@ApplicationScoped
class JobMetrics {

    void start(@Observes StartupEvent event, MeterRegistry registry) {
        JobFailures.register(registry, GameRetention.JOB, RaceReaper.JOB, RaceHeartbeat.JOB, SocketPings.JOB,
                OutboxRelay.JOB, AiClaims.JOB);
        registry.counter(OutboxBacklog.READ_FAILURES);
    }
}
