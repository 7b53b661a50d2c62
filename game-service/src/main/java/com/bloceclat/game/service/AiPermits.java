package com.bloceclat.game.service;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;

/**
 * When one replica's AI turns run: each at its due time (a Vert.x timer), then, if every permit is taken, in this
 * replica's queue until one is free. The number of permits follows the solver fleet's capacity
 * ({@link AiConcurrency}, AIMD): answers while turns wait (or while the last claim pass had no room for every due
 * game) raise it, 429/503 answers, timeouts and lost connections halve it. {@link #capacity} is how many games that
 * limit can play at the pace (Little's law with the measured turn time). Gauges: {@code bloc.ai.in.flight},
 * {@code bloc.ai.in.flight.limit}.
 */
final class AiPermits {

    private final Queue<AiTurn> ready = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicReference<AiConcurrency> limit = new AtomicReference<>();
    private final Vertx vertx;
    private final Executor executor;
    private final Consumer<AiTurn> play;
    private final Consumer<AiTurn> refused;
    /** Mean time of a turn's solver call and placement (nanoseconds, moving average), for {@link #capacity}. */
    private volatile double turnNanos = 20_000_000;
    private volatile boolean open = true;

    /**
     * @param play    runs one turn (on the executor, holding a permit)
     * @param refused a turn the executor would not take
     */
    AiPermits(AiConcurrency initial, Vertx vertx, Executor executor, Consumer<AiTurn> play,
            Consumer<AiTurn> refused, MeterRegistry registry) {
        limit.set(initial);
        this.vertx = vertx;
        this.executor = executor;
        this.play = play;
        this.refused = refused;
        Gauge.builder("bloc.ai.in.flight", inFlight, AtomicInteger::get)
                .description("AI turns of this replica asking solver-service now").register(registry);
        Gauge.builder("bloc.ai.in.flight.limit", limit, l -> l.get().limit())
                .description("How many AI turns this replica may have asking at once (AIMD)").register(registry);
    }

    /** How many games this replica can play at {@code pace} with its current limit, at most {@code maxGames}. */
    int capacity(Duration pace, int maxGames) {
        return limit.get().games(pace.toNanos(), turnNanos, maxGames);
    }

    /** Runs the turn at its due time, once a permit is free. */
    void schedule(AiTurn turn) {
        long delayMs = Duration.between(OffsetDateTime.now(ZoneOffset.UTC), turn.due()).toMillis();
        if (delayMs < 1) {
            enqueue(turn);
        } else {
            vertx.setTimer(delayMs, id -> enqueue(turn));
        }
    }

    /** The solver answered a turn; {@code unmet}: the last claim pass had no room for every due game. */
    void answered(boolean unmet) {
        boolean waiting = !ready.isEmpty() || unmet;
        limit.updateAndGet(l -> l.afterAnswer(waiting));
    }

    /** The solver fleet was full or away. */
    void busy() {
        limit.updateAndGet(l -> l.afterBusy(System.nanoTime()));
    }

    /** A turn took this long, from its start to its placement's commit. */
    void took(long nanos) {
        turnNanos = 0.9 * turnNanos + 0.1 * nanos;
    }

    /** Starts no turn from now on (a turn's own end still frees its permit). */
    void close() {
        open = false;
    }

    private void enqueue(AiTurn turn) {
        ready.add(turn);
        pump();
    }

    /** Starts the turns due while permits are free. */
    private void pump() {
        while (open) {
            int now = inFlight.get();
            if (now >= limit.get().permits() || ready.isEmpty()) {
                return;
            }
            if (!inFlight.compareAndSet(now, now + 1)) {
                continue;
            }
            AiTurn turn = ready.poll();
            if (turn == null) {
                inFlight.decrementAndGet();
                return;
            }
            try {
                executor.execute(() -> {
                    try {
                        play.accept(turn);
                    } finally {
                        inFlight.decrementAndGet();
                        pump();
                    }
                });
            } catch (RuntimeException e) {
                inFlight.decrementAndGet();
                refused.accept(turn);
                return;
            }
        }
    }
}
