package com.bloceclat.common.jobs;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code bloc_job_failures_total{job}}: the failed passes of a service's scheduled jobs, each of which logs a warning
 * and leaves the work to its next pass (docs/platform.md says what to alert on). Each job's counter is registered at
 * zero when the service starts: a counter that first appears at one is not an increase to an alert rule, so a job
 * that ran once an hour was seen failing only at its second failure.
 */
public final class JobFailures {

    /** The counter's name. */
    public static final String METRIC = "bloc.job.failures";

    private JobFailures() {
    }

    /** Registers each job's counter at zero (at the service's start). */
    public static void register(MeterRegistry registry, String... jobs) {
        for (String job : jobs) {
            registry.counter(METRIC, "job", job);
        }
    }

    /** Counts a failed pass of {@code job}. */
    public static void count(MeterRegistry registry, String job) {
        registry.counter(METRIC, "job", job).increment();
    }
}
