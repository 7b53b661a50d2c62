package com.bloceclat.solver.client;

import java.time.temporal.ChronoUnit;
import java.util.List;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import com.bloceclat.engine.protocol.ProtocolException;
import com.bloceclat.engine.protocol.SolverProtocol;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.quarkus.runtime.Startup;
import io.smallrye.faulttolerance.api.BeforeRetry;
import io.vertx.core.VertxException;

/**
 * What game-service uses to ask solver-service for AI moves and hints: the engine's {@link SolveRequest} in, its
 * {@link Solution} out, carried as the solver protocol's objects (SOLVER-PROTOCOL.md) written and read by the engine's
 * {@link SolverProtocol}, the same code solver-service answers with. Each attempt goes to the replica Stork picks, with the service token of
 * the caller's OIDC client, and may take {@code quarkus.rest-client.solver.read-timeout}; an attempt that cannot
 * connect, times out, loses its connection or finds the replica saturated is retried at once on another replica.
 * A search is a pure function of its request, so a retry never does anything twice.
 */
@ApplicationScoped
@Startup // made at start-up, not at the first hint or AI turn: a solver address that cannot be read stops the start
public class SolverClient {

    @Inject
    @RestClient
    SolverApi api;

    /**
     * No attempt starts later than this after the first, so a call takes at most this plus one attempt
     * ({@code connect-timeout} + {@code read-timeout}): 7 + 1 + 5 = 13 s by default, within game-service's AI lease
     * (15 s), so that a turn is not asked again by another replica while this one still waits (AiLeaseTest). Not
     * counted: renewing the service token, when an attempt has to (the OIDC client's own request and timeout; the
     * token is cached and lives minutes), and Stork's choice of a replica (in memory).
     */
    public static final long MAX_RETRYING_MS = 7000;

    @ConfigProperty(name = "bloc.solver.urls")
    List<String> urls;

    @ConfigProperty(name = "bloc.solver.discovery", defaultValue = "static")
    String discovery;

    @PostConstruct
    void defineService() {
        SolverDiscovery.of(discovery, urls).define();
    }

    /**
     * Solves one position; {@code id} is echoed by solver-service (for its logs and ours). The answer does not say
     * whether the time budget cut the search short ({@link Solution#complete()} reads true).
     *
     * @throws SolverRequestException     the request is malformed (the protocol's message); not retried
     * @throws SolverBusyException        every attempt found a saturated replica
     * @throws ProcessingException        every attempt failed to connect or timed out
     * @throws VertxException             every attempt lost its connection (a replica died mid-request)
     * @throws SolverUnavailableException any other error answer, or an answer that is not the protocol's
     */
    @Retry(maxRetries = 3, delay = 10, jitter = 5, delayUnit = ChronoUnit.MILLIS, maxDuration = MAX_RETRYING_MS,
            retryOn = { ProcessingException.class, VertxException.class, SolverBusyException.class })
    @BeforeRetry(SolverRetries.class)
    public Solution solve(String id, SolveRequest request) {
        JsonNode answer = api.solve(SolverProtocol.toJson(TextNode.valueOf(id), request));
        try {
            return SolverProtocol.solution(answer);
        } catch (ProtocolException e) {
            throw new SolverUnavailableException("solver-service answered what the protocol does not say ("
                    + e.getMessage() + ")");
        }
    }

    /** How many attempts were retried since start. */
    public long retries() {
        return SolverRetries.COUNT.get();
    }
}
