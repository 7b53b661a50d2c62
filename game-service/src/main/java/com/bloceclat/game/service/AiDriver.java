package com.bloceclat.game.service;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.context.ManagedExecutor;
import org.jboss.logging.Logger;

import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.Suggestion;
import com.bloceclat.solver.client.SolverBusyException;
import com.bloceclat.solver.client.SolverClient;
import com.bloceclat.solver.client.SolverUnavailableException;
import com.bloceclat.engine.solver.Solution;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
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
 * <li><b>Each turn is asked of solver-service once across replicas.</b> Every {@code bloc.ai.poll} (the Quarkus
 * scheduler, never two passes at once) a replica claims the AI games due before its next pass that no replica holds
 * ({@link AiLeases#claim}: {@code FOR UPDATE SKIP LOCKED}, a lease in the game's row). The replica holding a game
 * then plays its turns one after the other, each at its due time (a timer, not the next pass): it renews the lease
 * when a turn starts (a turn whose lease ran out and was taken meanwhile is dropped before it asks) and with each
 * placement, in the placement's transaction. So while the turn takes less than {@code bloc.ai.lease}, no other
 * replica asks for it. A placement is still applied only if the game did not change since the question was asked
 * ({@link GameService#aiPlay}), so even a turn asked twice (a lease that ran out) is played once.</li>
 * <li><b>A replica that dies mid-turn stalls nothing for long.</b> Its leases run out at most {@code bloc.ai.lease}
 * past their due time, and the next pass of any replica claims those games. A replica stopping releases its leases
 * at once.</li>
 * <li><b>The turns asking at once follow the solver fleet's capacity</b> ({@link AiConcurrency}, AIMD): a turn due
 * when every permit is taken waits in this replica's queue; answers while turns wait (or while the last pass had no
 * room for every due game) raise the limit, 429/503
 * answers, timeouts and lost connections (after the solver client's own retries) halve it. A replica claims no more
 * games than its limit lets it play at the pace (Little's law with its measured turn time, at most
 * {@code bloc.ai.max-games}, never fewer than its permits: {@link AiConcurrency#games}), and lets a game go after
 * the last placement of its round when it holds more, so the games it cannot play are left to the other replicas
 * (at a round's end: they have no plan to lose).</li>
 * <li>When no solver replica answers, the game is released and waits for a later pass; the match goes on.</li>
 * </ul>
 * The AI never starts a round its person has not been dealt ({@link MatchVisibility#aiMayPlay}): at a round boundary
 * it waits with its last piece until the person's round is ahead of its own, or the person's game has ended. A
 * waiting game is parked (held by no replica) for a pace, then claimed again by the next pass of any replica, so once
 * the person has moved on it plays within about a pace and a pass; parked games never count against a replica's
 * capacity.
 * <p>
 * Metrics: {@code bloc.ai.lateness} (from a turn's due time to its placement's commit; turns that waited for their
 * person are not counted), {@code bloc.ai.solver.calls}, {@code bloc.ai.placements} and
 * {@code bloc.ai.placements.planned} (placed from a plan, without a call): calls equal placements minus planned ones
 * but for retries after failures, so no turn is asked twice; a round of three pieces costs one call
 * ({@code AiReplicasIT}), {@code bloc.ai.answers.discarded},
 * {@code bloc.ai.in.flight}, {@code bloc.ai.in.flight.limit}, {@code bloc.ai.games} (held), {@code bloc.ai.waiting}.
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
    SolverClient solver;

    @Inject
    MeterRegistry registry;

    @Inject
    ManagedExecutor executor;

    @Inject
    Vertx vertx;

    /** This replica's name on its leases. */
    final UUID holder = UUID.randomUUID();

    /**
     * A turn of a held game: when it is due (application clock), whether it follows a wait for the person (its
     * lateness is then not the AI's: not counted), and the rest of the round's plan the solver answered, or null.
     */
    record Turn(UUID gameId, OffsetDateTime due, boolean waited, Plan plan) {
    }

    /**
     * The placements left of the solver's answer for a round, to play in order, valid while the game's event count is
     * {@code eventCount} (only its AI changes an AI game: the count moves only with its own placements).
     */
    record Plan(int eventCount, List<Suggestion> placements) {
    }

    /** The games this replica holds, each with its next turn. */
    private final Map<UUID, Turn> held = new ConcurrentHashMap<>();
    /** AI games this replica parked waiting for their person, until when (System.nanoTime), for the gauge. */
    private final Map<UUID, Long> parked = new ConcurrentHashMap<>();
    /** Turns due, waiting for a permit. */
    private final Queue<Turn> ready = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicReference<AiConcurrency> limit = new AtomicReference<>();
    /** Mean time of a turn's solver call and placement (nanoseconds, moving average), for the claim budget. */
    private volatile double turnNanos = 20_000_000;
    private volatile boolean running;
    /** Held by a claim pass: the stop waits for one in flight, so that the leases it took are released too. */
    private final ReentrantLock claiming = new ReentrantLock();
    /** The last pass claimed all it could: there may be due games this replica had no room for. */
    private volatile boolean unmet;

    private Timer lateness;
    private Counter calls;
    private Counter placements;
    private Counter planned;
    private Counter discarded;

    void start(@Observes StartupEvent event) {
        limit.set(AiConcurrency.start(config.initialInFlight(), 1, config.maxInFlight(), System.nanoTime()));
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
        Gauge.builder("bloc.ai.in.flight", inFlight, AtomicInteger::get)
                .description("AI turns of this replica asking solver-service now").register(registry);
        Gauge.builder("bloc.ai.in.flight.limit", limit, l -> l.get().limit())
                .description("How many AI turns this replica may have asking at once (AIMD)").register(registry);
        Gauge.builder("bloc.ai.games", held, Map::size).description("AI games this replica holds a lease on")
                .register(registry);
        Gauge.builder("bloc.ai.waiting", parked, Map::size)
                .description("AI games of this replica waiting for their person at the end of a round")
                .register(registry);
        running = true;
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        // a pass in flight ends first (within a bound): its claims would otherwise stay leased to a replica gone
        boolean locked = false;
        try {
            locked = claiming.tryLock(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            int released = leases.releaseAll(holder);
            LOG.infof("AI driver stopped: %d AI games released", released);
        } catch (RuntimeException e) {
            LOG.warnf("AI driver could not release its leases (%s): they run out by themselves", e.getMessage());
        } finally {
            if (locked) {
                claiming.unlock();
            }
        }
    }

    /** How many games this replica can play at the pace with its current limit (Little's law). */
    int capacity() {
        return limit.get().games(config.pace().toNanos(), turnNanos, config.maxGames());
    }

    /** The scheduler's pass: claims the games due before the next pass that nobody holds, within capacity. */
    @Scheduled(every = "${bloc.ai.poll:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void claimDue() {
        if (!claiming.tryLock()) {
            return; // the stop holds it (a pass of the scheduler's never runs beside another: SKIP)
        }
        try {
            if (running) {
                claimDueNow();
            }
        } finally {
            claiming.unlock();
        }
    }

    private void claimDueNow() {
        try {
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            OffsetDateTime dueBy = now.minus(config.pace()).plus(config.poll());
            long nanos = System.nanoTime();
            parked.values().removeIf(until -> nanos - until >= 0);
            int budget = capacity() - held.size();
            List<AiLeases.Claim> claims = leases.claim(holder, dueBy, config.poll(), config.pace(), config.lease(),
                    budget);
            // games may be left unclaimed for want of capacity: that is demand, as turns waiting for a permit are
            unmet = claims.size() >= budget;
            for (AiLeases.Claim c : claims) {
                OffsetDateTime due = c.updatedAt().plus(config.pace());
                if (c.parkedUntil() != null && c.parkedUntil().isAfter(due)) {
                    due = c.parkedUntil();
                }
                Turn turn = new Turn(c.gameId(), due, c.parkedUntil() != null, null);
                if (held.putIfAbsent(c.gameId(), turn) == null) {
                    schedule(turn);
                }
            }
        } catch (RuntimeException e) {
            LOG.warnf("AI claim failed (%s); the next pass retries", e.getMessage());
        }
    }

    private void schedule(Turn turn) {
        long delayMs = Duration.between(OffsetDateTime.now(ZoneOffset.UTC), turn.due()).toMillis();
        if (delayMs < 1) {
            enqueue(turn);
        } else {
            vertx.setTimer(delayMs, id -> enqueue(turn));
        }
    }

    private void enqueue(Turn turn) {
        ready.add(turn);
        pump();
    }

    /** Starts the turns due while permits are free. */
    private void pump() {
        while (running) {
            int now = inFlight.get();
            if (now >= limit.get().permits() || ready.isEmpty()) {
                return;
            }
            if (!inFlight.compareAndSet(now, now + 1)) {
                continue;
            }
            Turn turn = ready.poll();
            if (turn == null) {
                inFlight.decrementAndGet();
                return;
            }
            try {
                executor.execute(() -> {
                    try {
                        play(turn);
                    } finally {
                        inFlight.decrementAndGet();
                        pump();
                    }
                });
            } catch (RuntimeException e) {
                inFlight.decrementAndGet();
                drop(turn);
                return;
            }
        }
    }

    private enum Start {
        LOST, ENDED
    }

    /** One turn of one held game: a placement, a wait for its person, or its end. */
    void play(Turn turn) {
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
            Plan held = turn.plan();
            boolean fromPlan = held != null && held.eventCount() == question.eventCount();
            if (fromPlan) {
                plan = held.placements(); // the round's plan, asked at its first placement: no search
            } else {
                plan = SolverQuestions.plan(ask(question), question.slots(), id);
                boolean waiting = !ready.isEmpty() || unmet;
                limit.updateAndGet(l -> l.afterAnswer(waiting));
            }
            OffsetDateTime placed = QuarkusTransaction.requiringNew().call(() -> {
                OffsetDateTime at = games.aiPlay(question, plan.get(0));
                if (at != null) {
                    leases.renew(id, holder, config.pace(), config.lease());
                }
                return at;
            });
            turnNanos = 0.9 * turnNanos + 0.1 * (System.nanoTime() - started);
            if (placed == null) {
                discarded.increment();
                drop(turn);
                return;
            }
            placements.increment();
            if (fromPlan) {
                planned.increment();
            }
            if (!turn.waited()) {
                lateness.record(Math.max(0, Duration.between(turn.due(), OffsetDateTime.now(ZoneOffset.UTC))
                        .toNanos()), TimeUnit.NANOSECONDS);
            }
            Plan rest = plan.size() > 1 ? new Plan(question.eventCount() + 1, plan.subList(1, plan.size())) : null;
            next(new Turn(id, placed.plus(config.pace()), false, rest));
        } catch (ProcessingException | VertxException | SolverBusyException e) {
            limit.updateAndGet(l -> l.afterBusy(System.nanoTime()));
            LOG.debugf("AI game %s waits for a solver: %s", id, e.getMessage());
            drop(turn);
        } catch (SolverUnavailableException e) {
            LOG.debugf("AI game %s waits for a solver: %s", id, e.getMessage());
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
        calls.increment();
        return solver.solve(question.gameId() + ":" + question.eventCount(), question.request());
    }

    /** Keeps the game for its next turn, or lets it go at its round's end when this replica holds too many. */
    private void next(Turn turn) {
        if (!running) {
            return;
        }
        // over capacity, a game goes at the end of its round: mid-round, the next replica would lose its plan and ask
        // again (under load, games moving mid-round had two replicas make 0.6 searches a placement against 0.34)
        if (held.size() > capacity() && turn.plan() == null) {
            drop(turn);
            return;
        }
        held.put(turn.gameId(), turn);
        schedule(turn);
    }

    /** Stops holding a game: released, for any replica's next pass. */
    private void drop(Turn turn) {
        held.remove(turn.gameId());
        try {
            leases.release(turn.gameId(), holder);
        } catch (RuntimeException e) {
            LOG.debugf("AI game %s: lease not released (%s); it runs out", turn.gameId(), e.getMessage());
        }
    }
}
