package com.bloceclat.game.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.game.config.GameConfig;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Calls {@code POST /api/solver/solve} on the replicas of {@code bloc.solver.urls}, starting from a rotating
 * replica and moving to the next one when a replica is down, too slow, busy (429) or failing (5xx).
 */
@ApplicationScoped
public class HttpSolverClient implements SolverClient {

    private static final Logger LOG = Logger.getLogger(HttpSolverClient.class);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicInteger next = new AtomicInteger();

    @Inject
    GameConfig config;

    @Inject
    ObjectMapper json;

    @Override
    public JsonNode solve(ObjectNode request) {
        List<String> urls = config.solver().urls();
        int start = Math.floorMod(next.getAndIncrement(), urls.size());
        String body = request.toString();
        StringBuilder failures = new StringBuilder();
        for (int i = 0; i < urls.size(); i++) {
            String base = urls.get((start + i) % urls.size()).trim();
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/api/solver/solve"))
                        .timeout(config.solver().timeout())
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return json.readTree(response.body());
                }
                if (response.statusCode() == 400) {
                    throw new IllegalStateException("solver-service refused our request: " + response.body());
                }
                failures.append(base).append(" answered ").append(response.statusCode()).append("; ");
            } catch (IOException e) {
                failures.append(base).append(": ").append(e.getClass().getSimpleName()).append("; ");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SolverUnavailableException("interrupted while waiting for the solver");
            }
        }
        LOG.warnf("No solver replica answered: %s", failures);
        throw new SolverUnavailableException("No solver replica answered (" + urls.size() + " tried).");
    }
}
