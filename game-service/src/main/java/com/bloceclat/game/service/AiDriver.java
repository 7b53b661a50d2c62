package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;

import org.jboss.logging.Logger;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.solver.client.SolverBusyException;
import com.bloceclat.solver.client.SolverClient;
import com.bloceclat.solver.client.SolverUnavailableException;
import com.bloceclat.engine.solver.Solution;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Plays the AI's games: on every tick, each AI game still playing whose last change is at least one pace old gets
 * its next placement from solver-service. When no solver replica answers, the game simply waits for a later tick;
 * the match goes on. Any replica may play any AI game: a placement is applied only if the game did not change since
 * the question was asked (see {@link GameService#aiPlay}), so two replicas never both play one turn.
 * <p>
 * The AI never starts a round its person has not been dealt ({@link MatchVisibility#aiMayPlay}): at a round boundary
 * it waits with its last piece until the person's round is ahead of its own, or the person's game has ended. A
 * waiting game is looked at again once per pace (not on every tick), so once the person has moved on it plays within
 * about a pace, as it would have.
 */
@ApplicationScoped
public class AiDriver {

    private static final Logger LOG = Logger.getLogger(AiDriver.class);

    @Inject
    GameConfig.Ai config;

    @Inject
    GameService games;

    @Inject
    MatchService matches;

    @Inject
    SolverClient solver;

    @Inject
    MeterRegistry registry;

    private final Set<UUID> inFlight = ConcurrentHashMap.newKeySet();
    /** AI games found waiting for their person at a round boundary: when (System.nanoTime) to look again. */
    private final Map<UUID, Long> waiting = new ConcurrentHashMap<>();
    private ScheduledExecutorService ticker;
    private ExecutorService workers;

    void start(@Observes StartupEvent event) {
        Gauge.builder("bloc.ai.waiting", waiting, Map::size)
                .description("AI games of this replica waiting for their person at the end of a round")
                .register(registry);
        workers = Executors.newFixedThreadPool(config.threads(), r -> new Thread(r, "ai-player"));
        ticker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "ai-ticker"));
        long tick = Math.max(10, config.pace().toMillis() / 4);
        ticker.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        if (ticker != null) {
            ticker.shutdownNow();
            workers.shutdownNow();
        }
    }

    private void tick() {
        try {
            OffsetDateTime due = OffsetDateTime.now(ZoneOffset.UTC).minus(config.pace());
            long now = System.nanoTime();
            // games waiting for their person are left out until their time to look again (they would otherwise
            // stay first in the order and crowd out the games that may play)
            waiting.values().removeIf(again -> now - again >= 0);
            List<UUID> skip = List.copyOf(waiting.keySet());
            List<UUID> ready = QuarkusTransaction.requiringNew().call(() -> (skip.isEmpty()
                    ? GameEntity.<GameEntity>find(
                            "mode = ?1 and seat = ?2 and status = ?3 and updatedAt <= ?4 order by updatedAt",
                            GameEntity.Mode.VERSUS_AI, MatchService.AI_SEAT, GameEntity.Status.PLAYING, due)
                    : GameEntity.<GameEntity>find("mode = ?1 and seat = ?2 and status = ?3 and updatedAt <= ?4 "
                            + "and id not in ?5 order by updatedAt", GameEntity.Mode.VERSUS_AI,
                            MatchService.AI_SEAT, GameEntity.Status.PLAYING, due, skip))
                    .page(0, 100).list().stream().map(g -> g.id).toList());
            for (UUID id : ready) {
                if (inFlight.add(id)) {
                    workers.execute(() -> {
                        try {
                            playOne(id);
                        } finally {
                            inFlight.remove(id);
                        }
                    });
                }
            }
        } catch (RuntimeException e) {
            LOG.warnf("AI tick failed (%s); next tick retries", e.getMessage());
        }
    }

    /** One placement of one AI game, if it is still its turn. */
    void playOne(UUID gameId) {
        try {
            GameService.AiQuestion question = games.aiQuestion(gameId);
            if (question == null) {
                // Its match may have been decided while it played (the person ended behind it): it has won.
                matches.endDecidedAiGame(gameId);
                return;
            }
            if (question.waits()) {
                waiting.put(gameId, System.nanoTime() + config.pace().toNanos());
                LOG.debugf("AI game %s waits for its person at the end of a round", gameId);
                return;
            }
            waiting.remove(gameId);
            Solution answer = solver.solve(question.gameId() + ":" + question.eventCount(), question.request());
            games.aiPlay(question, answer);
        } catch (ProcessingException | SolverBusyException | SolverUnavailableException e) {
            LOG.debugf("AI game %s waits for a solver: %s", gameId, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warnf(e, "AI game %s: placement failed; retried on a later tick", gameId);
        }
    }
}
