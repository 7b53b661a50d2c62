package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.bloceclat.game.config.GameConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;

class AiConcurrencyTest {

    private static final long T0 = 1_000_000_000L;

    @Test
    void answersWhileTurnsWaitRaiseTheLimitByAboutOnePermitPerRoundOfAnswers() {
        AiConcurrency c = AiConcurrency.start(4, 1, 64, T0);
        assertEquals(4, c.permits());
        for (int i = 0; i < 5; i++) {
            c = c.afterAnswer(true);
        }
        assertEquals(5, c.permits(), "about one round of answers at a limit of 4 adds one permit");
        for (int i = 0; i < 1000; i++) {
            c = c.afterAnswer(true);
        }
        assertEquals(45, c.permits(), "additive: the square root of twice the answers, not their number");
    }

    @Test
    void aReplicaOverCapacityLetsAGameGoAtItsRoundsEndNotMidRound() {
        assertTrue(AiConcurrency.keeps(10, 10, false), "within capacity");
        assertTrue(AiConcurrency.keeps(3, 10, true));
        assertTrue(AiConcurrency.keeps(11, 10, true), "mid-round: the next replica would lose the round's plan");
        assertFalse(AiConcurrency.keeps(11, 10, false), "at the round's end: nothing to lose");
    }

    @Test
    void answersWithSparePermitsLeaveTheLimit() {
        AiConcurrency c = AiConcurrency.start(8, 1, 64, T0);
        assertSame(c, c.afterAnswer(false));
    }

    @Test
    void aFullSolverFleetHalvesTheLimitOncePerCoolDownAndNeverBelowTheMinimum() {
        AiConcurrency c = AiConcurrency.start(32, 2, 64, T0);
        c = c.afterBusy(T0);
        assertEquals(16, c.permits());
        // the other turns asked at the old limit fail too: one cut for all of them
        assertSame(c, c.afterBusy(T0 + AiConcurrency.COOL_DOWN_NANOS - 1));
        long t = T0;
        for (int i = 0; i < 10; i++) {
            t += AiConcurrency.COOL_DOWN_NANOS;
            c = c.afterBusy(t);
        }
        assertEquals(2, c.permits());
    }

    @Test
    void theLimitStaysWithinItsBounds() {
        AiConcurrency c = AiConcurrency.start(64, 1, 64, T0);
        assertSame(c, c.afterAnswer(true));
        assertEquals(64, AiConcurrency.start(500, 1, 64, T0).permits());
        assertEquals(1, AiConcurrency.start(0, 1, 64, T0).permits());
        assertThrows(IllegalArgumentException.class, () -> AiConcurrency.start(4, 0, 64, T0));
        assertThrows(IllegalArgumentException.class, () -> AiConcurrency.start(4, 8, 4, T0));
    }

    @Test
    void aReplicaHoldsTheGamesItCanPlayAtThePaceAndNeverFewerThanItsPermits() {
        AiConcurrency c = AiConcurrency.start(4, 1, 64, T0);
        long pace = 1_000_000_000L;
        assertEquals(40, c.games(pace, 100_000_000, 500), "4 permits, 10 turns each per pace");
        assertEquals(500, c.games(pace, 1_000_000, 500), "at most the configured games");
        // Turns slower than the pace (a loaded solver fleet): the games are late, but the replica still holds some.
        // At 0 it would never be answered again, its limit never rise, and its AI games never play (CI, session 5).
        assertEquals(4, c.games(100_000_000, 150_000_000, 500));
        assertEquals(1, AiConcurrency.start(1, 1, 64, T0).games(100_000_000, 2e9, 500));
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    /**
     * docs/game-service.md "Versus AI", metrics: the gauge {@code bloc_ai_in_flight} is the AI turns of the replica
     * asking solver-service now (held by a permit), never more than the limit, and {@code bloc_ai_in_flight_limit}
     * the AIMD limit as answers and a full solver fleet move it. The turns' executor here only keeps them: each ends
     * when the test runs it.
     */
    @Test
    void theInFlightGaugesCountTheTurnsAskingNowAndFollowTheLimit() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<Runnable> asking = new ArrayList<>();
        List<AiTurn> played = new ArrayList<>();
        AiPermits permits = new AiPermits(AiConcurrency.start(2, 1, 64, System.nanoTime()), null, asking::add,
                played::add, turn -> {
                    throw new AssertionError("refused " + turn);
                }, registry);
        assertEquals(0, gauge(registry, "bloc.ai.in.flight"));
        assertEquals(2, gauge(registry, "bloc.ai.in.flight.limit"), "the initial limit");

        OffsetDateTime due = OffsetDateTime.now(ZoneOffset.UTC).minusSeconds(1); // due: no timer
        for (int i = 0; i < 3; i++) {
            permits.schedule(new AiTurn(UUID.randomUUID(), due, false, null));
        }
        assertEquals(2, asking.size());
        assertEquals(2, gauge(registry, "bloc.ai.in.flight"), "two permits: the third turn waits");
        asking.remove(0).run();
        assertEquals(2, gauge(registry, "bloc.ai.in.flight"), "a turn ended: the waiting one has its permit");
        asking.remove(0).run();
        assertEquals(1, gauge(registry, "bloc.ai.in.flight"));
        asking.remove(0).run();
        assertEquals(0, gauge(registry, "bloc.ai.in.flight"), "every turn ended");
        assertEquals(3, played.size());

        permits.busy();
        assertEquals(1, gauge(registry, "bloc.ai.in.flight.limit"), "a full solver fleet halves it");
        permits.answered(true);
        assertEquals(2, gauge(registry, "bloc.ai.in.flight.limit"), "an answer while games were unmet: + 1/limit");
    }

    /**
     * docs/game-service.md "Versus AI", metrics: the gauge {@code bloc_ai_games} is the AI games this replica holds
     * (claimed, its turns timed by it), each once; {@code bloc_ai_waiting}, the games it parked for their person, has
     * none of them. A driver of the test's own, whose turns are due in an hour (their timers end with its Vert.x).
     */
    @Test
    void theGamesGaugeCountsTheGamesThisReplicaHolds() throws Exception {
        AiDriver driver = new AiDriver();
        driver.config = new GameConfig.Ai() {
            @Override
            public Duration pace() {
                return Duration.ofSeconds(1);
            }

            @Override
            public Duration poll() {
                return Duration.ofSeconds(1);
            }

            @Override
            public Duration lease() {
                return Duration.ofSeconds(15);
            }

            @Override
            public int initialInFlight() {
                return 8;
            }

            @Override
            public int maxInFlight() {
                return 64;
            }

            @Override
            public int maxGames() {
                return 5000;
            }
        };
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        driver.registry = registry;
        Vertx vertx = Vertx.vertx();
        driver.vertx = vertx;
        try {
            driver.start(null);
            assertEquals(0, gauge(registry, "bloc.ai.games"));
            OffsetDateTime inAnHour = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
            UUID one = UUID.randomUUID();
            driver.hold(new AiTurn(one, inAnHour, false, null));
            assertEquals(1, gauge(registry, "bloc.ai.games"));
            driver.hold(new AiTurn(UUID.randomUUID(), inAnHour, false, null));
            driver.hold(new AiTurn(one, inAnHour, false, null)); // held already: once
            assertEquals(2, gauge(registry, "bloc.ai.games"));
            assertEquals(0, gauge(registry, "bloc.ai.waiting"), "none waits for its person");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
