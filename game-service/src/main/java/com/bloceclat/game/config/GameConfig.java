package com.bloceclat.game.config;

import java.time.Duration;
import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** game-service's own settings (prefix {@code bloc}). */
@ConfigMapping(prefix = "bloc")
public interface GameConfig {

    /** Read by the solver client (module solver-client); named here because this mapping owns the prefix. */
    Solver solver();

    Outbox outbox();

    Ai ai();

    Live live();

    interface Live {
        /** Frames a second a socket may send on average. */
        @WithDefault("10")
        double framesPerSecond();

        /** Frames a socket may send at once. */
        @WithDefault("20")
        int burst();
    }

    interface Ai {
        /** The AI's pace: at most one placement per this interval, so a person can watch it play. */
        @WithDefault("1s")
        Duration pace();

        /** How many AI placements are worked out at once on this replica. */
        @WithDefault("4")
        int threads();
    }

    interface Solver {
        /** solver-service replicas ({@code SOLVER_URLS}). */
        List<String> urls();

        /** {@code static} or {@code dns} ({@code SOLVER_DISCOVERY}). */
        @WithDefault("static")
        String discovery();
    }

    interface Outbox {
        /** How often the relay looks for unsent messages when nothing woke it (for example after Kafka was down). */
        @WithDefault("2s")
        Duration pollInterval();

        /** How long the relay waits for the broker to acknowledge a batch before trying again later. */
        @WithDefault("10s")
        Duration sendTimeout();

        @WithDefault("200")
        int batchSize();
    }
}
