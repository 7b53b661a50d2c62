package com.bloceclat.game.service;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * What {@link AiDriver} measures. {@code bloc.ai.lateness}: from a turn's due time to its placement's commit (turns
 * that waited for their person are not counted); {@code bloc.ai.solver.calls}, {@code bloc.ai.placements} and
 * {@code bloc.ai.placements.planned} (placed from the round's plan, without a call): calls equal placements minus
 * planned ones but for retries after failures, so no turn is asked twice ({@code AiReplicasIT});
 * {@code bloc.ai.answers.discarded}; the gauges {@code bloc.ai.games} (held) and {@code bloc.ai.waiting}.
 */
final class AiMetrics {

    private final Timer lateness;
    private final Counter calls;
    private final Counter placements;
    private final Counter planned;
    private final Counter discarded;

    AiMetrics(MeterRegistry registry, Map<?, ?> held, Map<?, ?> parked) {
        lateness = Timer.builder("bloc.ai.lateness")
                .description("From an AI turn's due time (its game's last change plus the pace) to its placement")
                .publishPercentileHistogram().serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(250))
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        calls = Counter.builder("bloc.ai.solver.calls").description("Solver calls made for AI turns")
                .register(registry);
        placements = Counter.builder("bloc.ai.placements").description("AI placements made").register(registry);
        planned = Counter.builder("bloc.ai.placements.planned")
                .description("AI placements made from the round's plan, without a solver call").register(registry);
        discarded = Counter.builder("bloc.ai.answers.discarded")
                .description("Solver answers for AI turns not played: the game had changed meanwhile")
                .register(registry);
        Gauge.builder("bloc.ai.games", held, Map::size).description("AI games this replica holds a lease on")
                .register(registry);
        Gauge.builder("bloc.ai.waiting", parked, Map::size)
                .description("AI games of this replica waiting for their person at the end of a round")
                .register(registry);
    }

    void called() {
        calls.increment();
    }

    void discarded() {
        discarded.increment();
    }

    /** A placement of {@code turn} has just committed; {@code fromPlan}: played from the round's plan. */
    void placed(AiTurn turn, boolean fromPlan) {
        placements.increment();
        if (fromPlan) {
            planned.increment();
        }
        if (!turn.waited()) {
            long late = Duration.between(turn.due(), OffsetDateTime.now(ZoneOffset.UTC)).toNanos();
            lateness.record(Math.max(0, late), TimeUnit.NANOSECONDS);
        }
    }
}
