package com.bloceclat.game.config;

import java.time.Duration;
import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** game-service's own settings (prefix {@code bloc}). */
@ConfigMapping(prefix = "bloc")
public interface GameConfig {

    Solver solver();

    Outbox outbox();

    interface Solver {
        /** solver-service replicas, tried in turn from a rotating start. */
        List<String> urls();

        /** How long one replica may take to answer before the next one is tried. */
        @WithDefault("3s")
        Duration timeout();
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
