package com.bloceclat.solver.config;

import java.time.Duration;
import java.util.OptionalInt;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/**
 * {@code bloc.solver.*}: the worker pool and each caller kind's share of it, the time caps and the public callers'
 * rate limit (docs/solver-service.md).
 */
@ConfigMapping(prefix = "bloc.solver")
public interface SolverConfig {

    /** Search threads; by default one per available processor. */
    OptionalInt workers();

    /** What {@code Retry-After} says when a caller kind's share of the pool is full. */
    @WithDefault("1s")
    Duration retryAfter();

    /** The realm role that marks a calling service (Keycloak's {@code bloc-services} service account has it). */
    @WithDefault("service")
    String serviceRole();

    /** Callers with the service role: not rate-limited. */
    Service service();

    /** Everyone else: anonymous callers (keyed by address) and players (keyed by token subject). */
    @WithName("public")
    Public publicCallers();

    /** {@code POST /api/solver/analyse}: the analysis of a finished game, one page of rounds per call. */
    Analyse analyse();

    interface Analyse {
        /** Rounds one call analyses at most (its {@code rounds} parameter is clamped to it). */
        @WithDefault("10")
        int maxRounds();

        /** No round is started after this much time in one call (the answer then says where to go on). */
        @WithDefault("1500ms")
        Duration timeCap();

        /** The soft budget of each search within it. */
        @WithDefault("100ms")
        Duration solveTime();
    }

    interface Service {
        /** The hard cap on one search; a request's {@code timeMs} (0 = none) is clamped to it. */
        @WithDefault("2s")
        Duration timeCap();

        /**
         * Workers that run service searches only (at most {@code workers - 1}: public callers always keep one).
         * Public searches run on the other workers; service searches run on every worker, before public ones.
         */
        @WithDefault("1")
        int reservedWorkers();

        /** Service searches that may wait for a worker beyond the workers; past that 503 at once. */
        @WithDefault("16")
        int queueCapacity();
    }

    interface Public {
        /** The hard cap on one search for a public caller. */
        @WithDefault("250ms")
        Duration timeCap();

        /** Sustained requests per second per client. */
        @WithDefault("5")
        double requestsPerSecond();

        /** Requests a client may make at once after being idle. */
        @WithDefault("20")
        int burst();

        /**
         * Public searches that may wait for a worker; with the unreserved workers this is the public share of the
         * pool, past which a public request is refused at once with 429 (service callers' share is apart).
         */
        @WithDefault("16")
        int queueCapacity();

        /**
         * Refuse an anonymous solve request on the I/O thread, before authentication and before its body is read,
         * while the public share is full ({@code PublicShedding}); false leaves every refusal to the resource.
         */
        @WithDefault("true")
        boolean shedEarly();

        /**
         * Requests of one client admitted at once (waiting for a worker or in one); past it, 429. Below the public
         * share, so one client's burst never fills it on its own.
         */
        @WithDefault("2")
        int inFlightPerClient();

        /** Clients remembered at most; idle ones are forgotten first. */
        @WithDefault("10000")
        int maxClients();
    }
}
