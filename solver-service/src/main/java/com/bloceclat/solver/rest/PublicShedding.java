package com.bloceclat.solver.rest;

import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.Response;

import com.bloceclat.common.rest.Problem;
import com.bloceclat.solver.config.SolverConfig;
import com.bloceclat.solver.service.CallerKind;
import com.bloceclat.solver.service.SaturatedException;
import com.bloceclat.solver.service.SolverService;
import com.bloceclat.solver.service.WorkerPool;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * Refuses a public solve or analyse request on the I/O thread when the public share of the pool is full, before its
 * token is checked, its body read or its JSON parsed: under a public flood each refusal costs as little CPU as a 429
 * can, and that CPU is the one the service callers' requests share.
 *
 * <p>Guarantees:
 * <ul>
 * <li>Only {@code POST /api/solver/solve} and {@code POST /api/solver/analyse} without a bearer token (no
 * {@code Authorization} header, or one of another scheme: so certainly a public caller, as a service always sends its
 * token) is refused here, and only while the public
 * share is full at that moment ({@link WorkerPool#admitted} equals its capacity). Every other request goes on as
 * before: a request with a bearer token, even a player's, is refused (if at all) by the resource after authentication, as is
 * one that finds the share full later.</li>
 * <li>It runs after the CORS filter (a browser can read the 429 and its {@code Retry-After}) and before authentication.
 * The answer is the resource's: 429, {@code application/problem+json}, {@code Retry-After}; counted as {@code
 * solver_requests_total{caller="public",outcome="saturated",mode="unread"}} (the body was not read).</li>
 * <li>It never refuses a service caller: their share is apart and they always send a token.</li>
 * </ul>
 */
@ApplicationScoped
public class PublicShedding {

    /** Between CORS (300) and authentication (200). */
    static final int PRIORITY = (SecurityHandlerPriorities.CORS + SecurityHandlerPriorities.AUTHENTICATION) / 2;

    /** The calls that take a worker: a search, an analysis (a replay's body, the larger one). */
    static final Set<String> SHED = Set.of("/api/solver/solve", "/api/solver/analyse");

    /** The mode tag of a request refused before its body was read. */
    public static final String UNREAD = "unread";

    void register(@Observes Filters filters, WorkerPool pool, SolverService solver, SolverConfig config,
            ObjectMapper json) throws JsonProcessingException {
        if (!config.publicCallers().shedEarly()) {
            return;
        }
        Buffer body = Buffer.buffer(json.writeValueAsBytes(
                Problem.of(Response.Status.TOO_MANY_REQUESTS, new SaturatedException().getMessage())));
        String retryAfter = Long.toString(Math.max(1, config.retryAfter().toSeconds()));
        filters.register(rc -> {
            HttpServerRequest request = rc.request();
            if (request.method() == HttpMethod.POST && SHED.contains(routed(rc.normalizedPath()))
                    && !bearer(request.getHeader(HttpHeaders.AUTHORIZATION))
                    && pool.admitted(CallerKind.PUBLIC) >= pool.capacity(CallerKind.PUBLIC)) {
                solver.count(UNREAD, SolverService.SATURATED, CallerKind.PUBLIC);
                rc.response().setStatusCode(429)
                        .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                        .putHeader("Retry-After", retryAfter)
                        .end(body);
                return;
            }
            rc.next();
        }, PRIORITY);
    }

    /**
     * The path as the resource is matched against it: normalized (dot segments, escaped letters), without the matrix
     * parameters of its segments ({@code ;name=value}, which Quarkus REST strips before it routes) and without a
     * trailing slash, which RESTEasy passes over. The raw path let {@code /api/solver/solve/} past this filter, and
     * the normalized one {@code /api/solver/solve;x=1}.
     */
    static String routed(String normalized) {
        String p = normalized.indexOf(';') < 0 ? normalized : normalized.replaceAll(";[^/]*", "");
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    /**
     * Whether a request carries a bearer token, the only credential a service caller has: any other Authorization
     * (Basic, a bare word) leaves the caller anonymous, so it is shed like none.
     */
    static boolean bearer(String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7);
    }
}
