package com.bloceclat.leaderboard.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.leaderboard.service.AuditRetention;
import com.bloceclat.leaderboard.service.CheatDetector;
import com.bloceclat.leaderboard.service.ClockAheadRecovery;
import com.bloceclat.leaderboard.service.RefusedRetention;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;

/**
 * leaderboard-service's scheduled jobs' failure counters, and the clock-ahead recovery's failed games, at zero from the
 * start ({@link JobFailures}).
 */
@ApplicationScoped
class JobMetrics {

    void start(@Observes StartupEvent event, MeterRegistry registry) {
        JobFailures.register(registry, AuditRetention.JOB, RefusedRetention.JOB, CheatDetector.JOB,
                ClockAheadRecovery.JOB);
        registry.counter(ClockAheadRecovery.REJUDGED, "outcome", ClockAheadRecovery.FAILED);
    }
}
