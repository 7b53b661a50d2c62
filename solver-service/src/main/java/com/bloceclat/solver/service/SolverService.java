package com.bloceclat.solver.service;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import com.bloceclat.engine.protocol.SolverProtocol;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayFormatException;
import com.bloceclat.engine.replay.ReplayValidator;
import com.bloceclat.engine.solver.GameAnalysis;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.solver.config.SolverConfig;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Runs one protocol request on the worker pool under the caller's hard time cap and records what happened. The
 * budget runs from the moment the request is accepted, so time spent in the queue counts against it.
 */
@ApplicationScoped
public class SolverService {

    /** Outcomes of the {@code solver.requests} counter. */
    public static final String OK = "ok", PARTIAL = "partial", BAD_REQUEST = "bad_request",
            RATE_LIMITED = "rate_limited", SATURATED = "saturated", ERROR = "error";
    /** The {@code mode} tag of analyses in the metrics. */
    public static final String ANALYSE = "analyse";

    /** The answer object, the budget the search had and whether it finished within it. */
    public record Answer(ObjectNode body, long budgetMs, boolean complete) {
    }

    private final WorkerPool pool;
    private final SolverConfig config;
    private final MeterRegistry registry;

    public SolverService(WorkerPool pool, SolverConfig config, MeterRegistry registry) {
        this.pool = pool;
        this.config = config;
        this.registry = registry;
    }

    /** The request's {@code timeMs} (0 = none) clamped to the caller's cap, in milliseconds. */
    public long budgetMs(SolveRequest request, CallerKind caller) {
        Duration cap = caller == CallerKind.SERVICE ? config.service().timeCap() : config.publicCallers().timeCap();
        long capMs = Math.max(1, cap.toMillis());
        return request.timeMs() == 0 ? capMs : Math.min(request.timeMs(), capMs);
    }

    /**
     * Queues the search within the caller kind's share of the pool. @throws SaturatedException at once when that
     * share is full
     */
    public CompletionStage<Answer> solve(JsonNode id, SolveRequest request, CallerKind caller) {
        String mode = request.mode().wire();
        long budgetMs = budgetMs(request, caller);
        long accepted = System.nanoTime();
        try {
            return pool.submit(caller, () -> {
                long started = System.nanoTime();
                long waitedMs = TimeUnit.NANOSECONDS.toMillis(started - accepted);
                Solution solution = Solver.solve(withTime(request, Math.max(1, budgetMs - waitedMs)));
                long searched = System.nanoTime() - started;
                waited(mode, caller, started - accepted);
                searched(mode, caller, searched);
                Counter.builder("solver.positions.examined")
                        .description("Positions (placements) examined; its rate is positions per second")
                        .tag("mode", mode).register(registry).increment(solution.nodes());
                count(mode, solution.complete() ? OK : PARTIAL, caller);
                return new Answer(SolverProtocol.toJson(id, solution), budgetMs, solution.complete());
            });
        } catch (SaturatedException e) {
            count(mode, SATURATED, caller);
            throw e;
        }
    }

    /**
     * Analyses one page of a finished game on the worker pool, within {@code caller}'s share, bounded by
     * {@code bloc.solver.analyse.*}. The replay's text is read and validated there too, not on an I/O thread: a replay
     * at the body limit takes about 12 ms to read and check (docs/solver-service.md), which a flood of them would have
     * taken from every caller's requests; on the pool it waits its turn within the caller's share, at its priority.
     * {@code charge} runs once the replay is read and valid, before the analysis (a public caller's further rate).
     *
     * @throws SaturatedException at once when that share is full; the stage fails with {@link ReplayFormatException}
     *                            when the text is not a replay the validator accepts, or with what {@code charge} throws
     */
    public CompletionStage<GameAnalysis.Result> analyse(String replayText, int fromRound, int rounds, CallerKind caller,
            Runnable charge) {
        SolverConfig.Analyse bounds = config.analyse();
        int pageRounds = Math.max(1, Math.min(rounds, Math.min(bounds.maxRounds(), GameAnalysis.MAX_ROUNDS_PER_PAGE)));
        long accepted = System.nanoTime();
        try {
            return pool.submit(caller, () -> {
                long started = System.nanoTime();
                waited(ANALYSE, caller, started - accepted);
                // the cap runs from the moment the analysis was accepted, as a search's budget does: one that waited
                // past it analyses its first round and says where to go on, instead of a whole page long after its
                // caller may have given up
                long waitedMs = (started - accepted) / 1_000_000;
                GameAnalysis.Options options = new GameAnalysis.Options(fromRound, pageRounds,
                        Math.max(1, bounds.solveTime().toMillis()),
                        Math.max(1, bounds.timeCap().toMillis() - waitedMs));
                Replay replay = validReplay(replayText, caller);
                charge.run();
                GameAnalysis.Result result = GameAnalysis.analyse(replay, options);
                searched(ANALYSE, caller, System.nanoTime() - started);
                count(ANALYSE, result.complete() ? OK : PARTIAL, caller);
                return result;
            });
        } catch (SaturatedException e) {
            count(ANALYSE, SATURATED, caller);
            throw e;
        }
    }

    /** The replay {@code text} holds, if the validator accepts it; else counted as a bad request. */
    private Replay validReplay(String text, CallerKind caller) {
        try {
            Replay replay = Replay.fromJson(text);
            ReplayValidator.Result verdict = ReplayValidator.validate(replay);
            if (!verdict.valid()) {
                throw new ReplayFormatException("the replay is not a valid game: " + verdict.error());
            }
            return replay;
        } catch (ReplayFormatException | IllegalArgumentException e) {
            count(ANALYSE, BAD_REQUEST, caller);
            throw e instanceof ReplayFormatException r ? r : new ReplayFormatException(e.getMessage());
        }
    }

    /**
     * Records a search's time on its worker in {@code solver.search}. Every mode, the analysis included, carries the same
     * tags: Prometheus drops a meter whose tag keys differ from the first one registered under its name.
     */
    /** Records in {@code solver.queue.wait} how long a search or analysis waited for a worker. */
    private void waited(String mode, CallerKind caller, long nanos) {
        Timer.builder("solver.queue.wait").description("Time a search or an analysis waited for a worker")
                .tag("mode", mode).tag("caller", caller.tag()).publishPercentileHistogram().register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    private void searched(String mode, CallerKind caller, long nanos) {
        Timer.builder("solver.search").description("Search time on a worker").tag("mode", mode)
                .tag("caller", caller.tag()).publishPercentileHistogram().register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Counts one request in {@code solver.requests}. */
    public void count(String mode, String outcome, CallerKind caller) {
        Counter.builder("solver.requests").description("Solve requests by mode, outcome and kind of caller")
                .tag("mode", mode).tag("outcome", outcome).tag("caller", caller.tag())
                .register(registry).increment();
    }

    private static SolveRequest withTime(SolveRequest r, long timeMs) {
        return new SolveRequest(r.board(), r.pieces(), r.streak(), r.miss(), r.level(), r.mode(), r.strength(),
                r.seed(), timeMs);
    }
}
