package com.bloceclat.game.live;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.config.GameConfig;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Every {@code bloc.race.heartbeat}, marks in one UPDATE the race games whose player has a match socket open on
 * this replica as seen now, so that {@code RaceReaper} (on any replica) knows they are there.
 */
@ApplicationScoped
public class RaceHeartbeat {

    private static final Logger LOG = Logger.getLogger(RaceHeartbeat.class);

    @Inject
    GameConfig.Race config;

    private ScheduledExecutorService ticker;

    void start(@Observes StartupEvent event) {
        ticker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "race-heartbeat"));
        long every = config.heartbeat().toMillis();
        ticker.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        if (ticker != null) {
            ticker.shutdownNow();
        }
    }

    void beat() {
        try {
            Set<UUID> here = MatchSocket.raceGamesWithSockets();
            if (!here.isEmpty()) {
                QuarkusTransaction.requiringNew().call(() -> GameEntity.seen(here));
            }
        } catch (RuntimeException e) {
            LOG.warnf("Race heartbeat failed (%s); the next one retries", e.getMessage());
        }
    }
}
