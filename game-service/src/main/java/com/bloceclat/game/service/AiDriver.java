package com.bloceclat.game.service;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.context.ManagedExecutor;
import org.jboss.logging.Logger;

import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.Suggestion;
import com.bloceclat.solver.client.SolverBusyException;
import com.bloceclat.solver.client.SolverClient;
import com.bloceclat.solver.client.SolverUnavailableException;
import com.bloceclat.engine.solver.Solution;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;

/**
 * Plays the AI's games: each AI game still playing places its next piece one {@code bloc.ai.pace} after its last
 * change. The first placement of each round asks solver-service for the round (the best sequence of the pieces left,
 * as the engine's self-play measures the AI's strength: one search a round); the replica keeps the rest of that plan
 * and plays it at the next turns without asking, while the game's event count is the one the plan follows. A plan is
 * this replica's alone: a game claimed by another replica, or parked mid-round, asks again. AI turns are claimed, not
 * raced:
 * <ul>
 * <li><b>Each turn is asked of solver-service once across replicas.</b> Every {@code bloc.ai.poll} ({@link AiClaims},
 * the Quarkus scheduler, never two passes at once) a replica claims the AI games due before its next pass that no
 * replica holds ({@link AiLeases#claim}: {@code FOR UPDATE SKIP LOCKED}, a lease in the game's row). The replica
 * holding a game then plays its turns one after the other, each at its due time (a timer, not the next pass): it renews
 * the lease when a turn starts (a turn whose lease ran out and was taken meanwhile is dropped before it asks) and with
 * each placement, in the placement's transaction. So while the turn takes less than {@code bloc.ai.lease}, no other
 * replica asks for it. A placement is still applied only if the game did not change since the question was asked
 * ({@link GameService#aiPlay}), so even a turn asked twice (a lease that ran out) is played once.</li>
 * <li><b>A replica that dies mid-turn stalls nothing for long.</b> Its leases run out at most {@code bloc.ai.lease}
 * past their due time, and the next pass of any replica claims those games. A replica stopping releases its leases
 * at once.</li>
 * <li><b>The turns asking at once follow the solver fleet's capacity</b> ({@link AiPermits}, AIMD). A replica
 * claims no more games than its limit lets it play at the pace (at most {@code bloc.ai.max-games}), and lets a game
 * go when it holds more, at the game's round's end ({@link AiConcurrency#keeps}), so the games it cannot play are
 * left to the other replicas.</li>
 * <li>When no solver replica answers, the game is released and waits for a later pass; the match goes on.</li>
 * </ul>
 * The AI never starts a round its person has not been dealt ({@link MatchVisibility#aiMayPlay}): at a round boundary
 * it waits with its last piece until the person's round is ahead of its own, or the person's game has ended. A
 * waiting game is parked (held by no replica) for a pace, then claimed again by the next pass of any replica, so once
 * the person has moved on it plays within about a pace and a pass; parked games never count against a replica's
 * capacity.
 * <p>
 * Metrics: {@link AiMetrics}, {@link AiPermits}.
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
    AiLeases leases;

    @Inject
    AiClaims claims;

    @Inject
    SolverClient solver;

    @Inject
    MeterRegistry registry;

    @Inject
    ManagedExecutor executor;

    @Inject
    Vertx vertx;

    /** This replica's name on its leases. */
    private final UUID holder = UUID.randomUUID();

    /** The games this replica holds, each with its next turn. */
    private final Map<UUID, AiTurn> held = new ConcurrentHashMap<>();
    /** AI games this replica parked waiting for their person, until when (System.nanoTime), for the gauge. */
    private final Map<UUID, Long> parked = new ConcurrentHashMap<>();
    private AiPermits permits;
    private volatile boolean running;

    private AiMetrics metrics;

    void start(@Observes StartupEvent event) {
        AiConcurrency first = AiConcurrency.start(config.initialInFlight(), 1, config.maxInFlight(), System.nanoTime());
        permits = new AiPermits(first, vertx, executor, this::play, this::drop, registry);
        metrics = new AiMetrics(registry, held, parked);
        running = true;
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        permits.close();
        claims.stop();
    }

    boolean running() {
        return running;
    }

    /** This replica's name on its leases (a method: {@link AiClaims} holds a client proxy, with fields of its own). */
    UUID holder() {
        return holder;
    }

    /** How many more games this replica has room for now (parked games whose wait is over leave the gauge). */
    int room() {
        long nanos = System.nanoTime();
        parked.values().removeIf(until -> nanos - until >= 0);
        return capacity() - held.size();
    }

    /** Holds a game claimed by {@link AiClaims}: its turns are played from now on. */
    void hold(AiTurn turn) {
        if (held.putIfAbsent(turn.gameId(), turn) == null) {
            permits.schedule(turn);
        }
    }

    private int capacity() {
        return permits.capacity(config.pace(), config.maxGames());
    }

    private enum Start {
        LOST, ENDED
    }

    /** One turn of one held game: a placement, a wait for its person, or its end. */
    void play(AiTurn turn) {
        UUID id = turn.gameId();
        long started = System.nanoTime();
        try {
            Object start = QuarkusTransaction.requiringNew().call(() -> {
                if (!leases.renew(id, holder, Duration.ZERO, config.lease())) {
                    return Start.LOST;
                }
                GameService.AiQuestion q = games.aiQuestion(id);
                return q == null ? Start.ENDED : q;
            });
            if (start == Start.LOST) {
                held.remove(id);
                return;
            }
            if (start == Start.ENDED) {
                // Its match may have been decided while it played (the person ended behind it): it has won.
                matches.endDecidedAiGame(id);
                drop(turn);
                return;
            }
            GameService.AiQuestion question = (GameService.AiQuestion) start;
            if (question.waits()) {
                // parked, held by no replica, for a pace: waiting games never take the place of games that play
                LOG.debugf("AI game %s waits for its person at the end of a round", id);
                held.remove(id);
                parked.put(id, System.nanoTime() + config.pace().toNanos());
                leases.park(id, holder, config.pace());
                return;
            }
            List<Suggestion> plan;
            AiTurn.Plan held = turn.plan();
            boolean fromPlan = held != null && held.eventCount() == question.eventCount();
            if (fromPlan) {
                plan = held.placements(); // the round's plan, asked at its first placement: no search
            } else {
                plan = SolverQuestions.plan(ask(question), question.slots(), id);
                permits.answered(claims.unmet());
            }
            OffsetDateTime placed = QuarkusTransaction.requiringNew().call(() -> {
                OffsetDateTime at = games.aiPlay(question, plan.get(0));
                if (at != null) {
                    leases.renew(id, holder, config.pace(), config.lease());
                }
                return at;
            });
            permits.took(System.nanoTime() - started);
            if (placed == null) {
                metrics.discarded();
                drop(turn);
                return;
            }
            metrics.placed(turn, fromPlan);
            AiTurn.Plan rest = plan.size() < 2 ? null
                    : new AiTurn.Plan(question.eventCount() + 1, plan.subList(1, plan.size()));
            next(new AiTurn(id, placed.plus(config.pace()), false, rest));
        } catch (ProcessingException | VertxException | SolverBusyException e) {
            permits.busy();
            LOG.debugf("AI game %s waits for a solver: %s", id, e.getMessage());
            drop(turn);
        } catch (SolverUnavailableException e) {
            LOG.debugf("AI game %s waits for a solver: %s", id, e.getMessage());
            drop(turn);
        } catch (ClientErrorException e) {
            // 409: its match was decided while the placement waited for the match (MatchJudge): nothing was placed,
            // and the next pass ends the game as the match says
            if (e.getResponse().getStatus() == 409) {
                LOG.debugf("AI game %s: %s", id, e.getMessage());
                metrics.discarded();
            } else {
                LOG.warnf(e, "AI game %s: placement failed; retried on a later pass", id);
            }
            drop(turn);
        } catch (RuntimeException e) {
            LOG.warnf(e, "AI game %s: placement failed; retried on a later pass", id);
            drop(turn);
        }
    }

    /**
     * The one solver call of an AI turn: the question's request to solver-service, its answer back. Counted in
     * {@code bloc.ai.solver.calls} whatever the outcome.
     */
    Solution ask(GameService.AiQuestion question) {
        metrics.called();
        return solver.solve(question.gameId() + ":" + question.eventCount(), question.request());
    }

    /** Keeps the game for its next turn, or lets it go (at its round's end) when this replica holds too many. */
    private void next(AiTurn turn) {
        if (!running) {
            return;
        }
        if (!AiConcurrency.keeps(held.size(), capacity(), turn.plan() != null)) {
            drop(turn);
            return;
        }
        held.put(turn.gameId(), turn);
        permits.schedule(turn);
    }

    /** Stops holding a game: released, for any replica's next pass. */
    private void drop(AiTurn turn) {
        held.remove(turn.gameId());
        try {
            leases.release(turn.gameId(), holder);
        } catch (RuntimeException e) {
            LOG.debugf("AI game %s: lease not released (%s); it runs out", turn.gameId(), e.getMessage());
        }
    }
}
