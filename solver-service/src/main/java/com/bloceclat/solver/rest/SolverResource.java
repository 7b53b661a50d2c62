package com.bloceclat.solver.rest;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.bloceclat.common.rest.Problem;
import com.bloceclat.common.rest.ServiceInfo;
import com.bloceclat.common.security.Caller;
import com.bloceclat.common.security.ClientKey;
import com.bloceclat.engine.protocol.ProtocolException;
import com.bloceclat.engine.protocol.SolverProtocol;
import com.bloceclat.engine.replay.ReplayFormatException;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.solver.config.SolverConfig;
import com.bloceclat.solver.service.CallerKind;
import com.bloceclat.solver.service.RateLimitedException;
import com.bloceclat.solver.service.RateLimiter;
import com.bloceclat.solver.service.SaturatedException;
import com.bloceclat.solver.service.SolverService;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

@Path("/api/solver")
@Produces(MediaType.APPLICATION_JSON)
public class SolverResource {

    /** The budget the search had, in milliseconds, after the caller's cap. */
    public static final String BUDGET_HEADER = "X-Solver-Budget-Ms";
    /** {@code false} when the budget ran out and the answer is the best found so far. */
    public static final String COMPLETE_HEADER = "X-Solver-Complete";

    private static final String EXAMPLE_REPLAY = """
            {"rulesVersion": 1, "seed": 42, "level": "MEDIUM", "assisted": false, "claimedScore": 9, "claimedRounds": 0,
             "rounds": [["O4", "I3H", "DOT"]],
             "events": [{"type": "place", "round": 0, "slot": 0, "row": 0, "col": 0}]}""";
    private static final String EXAMPLE_ANALYSIS = """
            {"totalRounds": 1, "fromRound": 0, "nextRound": -1, "complete": true,
             "moves": [{"move": 1, "event": 0, "round": 0, "board": ["........", "...", "........"],
                        "remaining": ["O4", "I3H", "DOT"], "score": 0, "streak": 0, "miss": 0,
                        "played": {"slot": 0, "piece": "O4", "row": 0, "col": 0},
                        "ai": {"slot": 0, "piece": "O4", "row": 6, "col": 0},
                        "aiLine": [{"slot": 0, "piece": "O4", "row": 6, "col": 0}], "loss": 37, "fatal": false}],
             "rounds": [{"round": 0, "lines": 0, "maxLines": 0, "couldClearMore": false, "best": [], "loss": 37}]}""";
    private static final String EXAMPLE_AI = """
            {"id": "t1",
             "board": ["........", "........", "........", "........",
                       "........", "........", "######..", "#####.##"],
             "pieces": [["##"], ["##", "##"], ["#"]],
             "streak": 0, "miss": 0, "level": "HARD", "mode": "ai", "strength": 5, "seed": 7, "timeMs": 100}""";
    private static final String EXAMPLE_HINT = """
            {"id": "hint-3", "board": ["#######.", "#######.", "........", "........",
                                       "........", "........", "........", "........"],
             "pieces": ["I2V", "DOT", "O9"], "streak": 7, "miss": 2, "mode": "hint"}""";
    private static final String EXAMPLE_MAX_LINES = """
            {"id": "classic", "board": [".....#..", ".....#..", "........", ".....#..",
                                        ".....#..", ".....#..", "###..###", ".....#.."],
             "pieces": ["I2H", "O4", "DOT"], "mode": "maxLines"}""";
    private static final String EXAMPLE_ANSWER = """
            {"id": "t1",
             "placements": [{"piece": 0, "row": 6, "col": 6}, {"piece": 2, "row": 7, "col": 5},
                            {"piece": 1, "row": 0, "col": 0}],
             "points": 437, "lines": 2, "streak": 2, "miss": 1,
             "board": ["##......", "##......", "........", "........",
                       "........", "........", "........", "........"],
             "gameOver": false, "nodes": 205045, "micros": 21840}""";
    private static final String EXAMPLE_BAD = """
            {"status": 400, "title": "Bad Request", "detail": "piece 0: unknown piece id \\"Q7\\"",
             "id": "t1", "error": "piece 0: unknown piece id \\"Q7\\""}""";
    private static final String EXAMPLE_BUSY = """
            {"status": 429, "title": "Too Many Requests",
             "detail": "Every solver worker this kind of caller may use is busy and its queue is full; retry shortly or on another replica."}""";

    @Inject
    SecurityIdentity identity;

    @Inject
    ServiceInfo info;

    @Inject
    SolverService solver;

    @Inject
    RateLimiter rateLimiter;

    @Inject
    SolverConfig config;

    @GET
    @Path("/info")
    @Operation(summary = "Public: which service and version answers")
    public ServiceInfo info() {
        return info;
    }

    @GET
    @Path("/whoami")
    @Authenticated
    @Operation(summary = "The caller as this service sees the bearer token: subject, name and realm roles")
    public Caller whoami() {
        return Caller.of(identity);
    }

    @POST
    @Path("/solve")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Solve one position (SOLVER-PROTOCOL.md): the AI's move, a hint or the classic maxLines answer",
            description = "The body and the answer are the solver protocol's request and response objects, the same "
                    + "JSON as the engine CLI's lines. Anonymous callers and players are rate-limited per client and "
                    + "their searches capped at bloc.solver.public.time-cap; callers with the service role (the "
                    + "bloc-services client credentials token) are not rate-limited and are capped at "
                    + "bloc.solver.service.time-cap. Each kind of caller has its own share of the worker pool and its own "
                    + "threads (a public flood never takes the services' share; public searches run at the lowest OS "
                    + "priority). timeMs is clamped to the cap (0 means the cap).")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.OBJECT),
            examples = {
                    @ExampleObject(name = "ai", summary = "The AI's move at strength 5", value = EXAMPLE_AI),
                    @ExampleObject(name = "hint", summary = "A hint for a player", value = EXAMPLE_HINT),
                    @ExampleObject(name = "maxLines", summary = "Most lines, with every equally good alternative",
                            value = EXAMPLE_MAX_LINES) }))
    @APIResponse(responseCode = "200", description = "The answer object",
            headers = {
                    @Header(name = BUDGET_HEADER, description = "The search's budget after the caller's cap",
                            schema = @Schema(type = SchemaType.INTEGER)),
                    @Header(name = COMPLETE_HEADER, description = "false when the budget cut the search short",
                            schema = @Schema(type = SchemaType.BOOLEAN)) },
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.OBJECT),
                    examples = @ExampleObject(name = "ai", value = EXAMPLE_ANSWER)))
    @APIResponse(responseCode = "400", description = "Malformed request; detail is the protocol's error message, and "
            + "the body is also the protocol's error object: id (the request's, null when it could not be read) and "
            + "error, as the CLI answers the same line",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = ProtocolProblem.class),
                    examples = @ExampleObject(name = "unknown piece", value = EXAMPLE_BAD)))
    @APIResponse(responseCode = "401", description = "A bearer token was sent and is not valid")
    @APIResponse(responseCode = "413", description = "The body is over 16K characters (a request is well under 2 KB), "
            + "or over quarkus.http.limits.max-body-size (then refused before it is read)",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "415", description = "The body is not application/json",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "429", description = "A public caller went past its rate, or the public share of "
            + "the pool is full; answered at once",
            headers = @Header(name = "Retry-After", description = "Seconds to wait",
                    schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE, examples = @ExampleObject(name = "saturated",
                    value = EXAMPLE_BUSY)))
    @APIResponse(responseCode = "503", description = "A service caller, and the services' share of the pool is full; "
            + "answered at once (a 5xx, so that the caller's load balancer tries another replica)",
            headers = @Header(name = "Retry-After", description = "Seconds to wait",
                    schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> solve(String body, @Context HttpServerRequest http) {
        CallerKind caller = callerKind();
        if (body != null && body.length() > SolverProtocol.MAX_REQUEST_CHARS) {
            // The HTTP limit is the analyses' (a replay is larger); a protocol request stays under this one. Counted
            // in the caller's rate like any other request: before, a flood of these was never rate-limited.
            admit(caller, "invalid", http).run();
            solver.count("invalid", SolverService.BAD_REQUEST, caller);
            return Uni.createFrom().item(Problem.of(Response.Status.REQUEST_ENTITY_TOO_LARGE,
                    "a solve request is at most " + SolverProtocol.MAX_REQUEST_CHARS + " characters").toResponse().build());
        }
        JsonNode node = null;
        ProtocolException malformed = null;
        try {
            node = SolverProtocol.readTree(body);
        } catch (ProtocolException e) {
            malformed = e; // answered after the rate limit, like any other bad request
        }
        String mode = modeTag(node);
        Runnable done = admit(caller, mode, http);
        JsonNode id = node != null && node.has("id") ? node.get("id") : NullNode.getInstance();
        SolveRequest request;
        try {
            if (malformed != null) {
                throw malformed;
            }
            request = SolverProtocol.parse(node);
        } catch (ProtocolException e) {
            done.run();
            solver.count(mode, SolverService.BAD_REQUEST, caller);
            return Uni.createFrom().item(Response.status(Response.Status.BAD_REQUEST).type(Problem.MEDIA_TYPE)
                    .entity(ProtocolProblem.of(id, e.getMessage())).build());
        } catch (RuntimeException | Error e) {
            done.run();
            throw e;
        }
        return whileAdmitted(done, () -> solver.solve(id, request, caller))
                .map(answer -> Response.ok(answer.body().toString(), MediaType.APPLICATION_JSON)
                        .header(BUDGET_HEADER, answer.budgetMs())
                        .header(COMPLETE_HEADER, answer.complete())
                        .build());
    }

    /**
     * A malformed solve request's answer: a problem body (RFC 9457) that is also the protocol's error object
     * (SOLVER-PROTOCOL.md: {@code {"id": ..., "error": ...}}, the request's id echoed, null when it could not be read),
     * so that the REST endpoint answers what the CLI answers for the same line, and a client matching answers by id
     * can match this one. A message past {@link Problem#MAX_DETAIL} characters (one quoting a long value the client
     * sent) is cut as every problem's detail is, in both places: it came back whole, twice.
     */
    public record ProtocolProblem(int status, String title, String detail, JsonNode id, String error) {

        static ProtocolProblem of(JsonNode id, String message) {
            String cut = Problem.cut(message);
            return new ProtocolProblem(400, Response.Status.BAD_REQUEST.getReasonPhrase(), cut, id, cut);
        }
    }

    /**
     * A public caller's request admitted ({@link RateLimiter#admit}: its rate, and its requests at once), or refused
     * with 429; answers what ends its admission (nothing to end for a service caller).
     */
    private Runnable admit(CallerKind caller, String mode, HttpServerRequest http) {
        if (caller != CallerKind.PUBLIC) {
            return () -> { };
        }
        try {
            return rateLimiter.admit(clientKey(http));
        } catch (RateLimitedException e) {
            solver.count(mode, SolverService.RATE_LIMITED, caller);
            throw e;
        }
    }

    /**
     * The work's answer; its admission ends ({@code done}) when the work itself has ended, however it ended. Not when
     * the answer is cancelled: a client that closes its connection cancels the answer, but its search still holds its
     * place in the pool until it ends, so it keeps the client's place too (else closing connections would get round
     * the cap).
     */
    private static <T> Uni<T> whileAdmitted(Runnable done, Supplier<CompletionStage<T>> work) {
        CompletableFuture<T> task;
        try {
            task = work.get().toCompletableFuture();
        } catch (RuntimeException | Error e) {
            done.run(); // refused before it began (the pool's share full)
            throw e;
        }
        task.whenComplete((answer, failure) -> done.run());
        return Uni.createFrom().completionStage(task.copy()); // a cancelled copy leaves the task, and done, alone
    }

    @POST
    @Path("/analyse")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Analyse a finished game: per placement the full-strength AI's choice and the loss in points",
            description = "The body is a replay (docs/rules.md \"Replays\", as game-service's GET /api/games/{id}/replay "
                    + "serves it; its start board is ignored). Only a replay the validator accepts is analysed. One call "
                    + "analyses at most bloc.solver.analyse.max-rounds rounds from fromRound, on the worker pool within the "
                    + "caller's share, and starts no round after bloc.solver.analyse.time-cap; nextRound says where the "
                    + "next page starts (-1: the end of the game). Public callers are rate-limited as for /solve. The loss "
                    + "is in game points (docs/solver.md \"Analysis of a finished game\").")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.OBJECT),
            examples = @ExampleObject(name = "replay", value = EXAMPLE_REPLAY)))
    @APIResponse(responseCode = "200", description = "One page of the analysis",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.OBJECT),
                    examples = @ExampleObject(name = "page", value = EXAMPLE_ANALYSIS)))
    @APIResponse(responseCode = "400", description = "Not a valid replay, or a bad fromRound/rounds; detail says why",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "401", description = "A bearer token was sent and is not valid")
    @APIResponse(responseCode = "413", description = "The body is larger than quarkus.http.limits.max-body-size")
    @APIResponse(responseCode = "415", description = "The body is not application/json",
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "429", description = "A public caller went past its rate (an analysis counts as "
            + "the public searches its worker time is worth, docs/solver-service.md), or the public share of the pool "
            + "is full, as for /solve",
            headers = @Header(name = "Retry-After", description = "Seconds to wait",
                    schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    @APIResponse(responseCode = "503", description = "A service caller, and the services' share of the pool is full, "
            + "as for /solve",
            headers = @Header(name = "Retry-After", description = "Seconds to wait",
                    schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE))
    public Uni<Response> analyse(String body,
            @Parameter(description = "The first round analysed, 0-based (default 0)") @QueryParam("fromRound") String fromRound,
            @Parameter(description = "Rounds to analyse, 1 to bloc.solver.analyse.max-rounds (default and cap: that)")
            @QueryParam("rounds") String rounds,
            @Context HttpServerRequest http) {
        CallerKind caller = callerKind();
        Runnable done = admit(caller, SolverService.ANALYSE, http);
        int from;
        int count;
        try {
            from = intParam("fromRound", fromRound, 0, 0, 1_000_000);
            count = intParam("rounds", rounds, config.analyse().maxRounds(), 1, 1_000_000);
            if (body == null || body.isBlank()) {
                throw new ReplayFormatException("the body must be a replay");
            }
        } catch (ReplayFormatException | IllegalArgumentException e) {
            done.run();
            solver.count(SolverService.ANALYSE, SolverService.BAD_REQUEST, caller);
            return Uni.createFrom().item(badRequest(e));
        } catch (RuntimeException | Error e) {
            done.run();
            throw e;
        }
        // The replay is read and validated on the worker (SolverService.analyse), then this runs: an analysis holds a
        // worker as long as several searches, so a valid one counts as more requests (a bad one as the one admitted)
        int more = analysisRequests() - 1;
        String client = caller == CallerKind.PUBLIC && more > 0 ? clientKey(http) : null;
        Runnable charge = client == null ? () -> { } : () -> {
            try {
                rateLimiter.acquire(client, more);
            } catch (RateLimitedException e) {
                solver.count(SolverService.ANALYSE, SolverService.RATE_LIMITED, caller);
                throw e;
            }
        };
        return whileAdmitted(done, () -> solver.analyse(body, from, count, caller, charge))
                .map(result -> Response.ok(result, MediaType.APPLICATION_JSON).build())
                .onFailure(ReplayFormatException.class).recoverWithItem(SolverResource::badRequest);
    }

    /**
     * The requests a public analysis counts as in its caller's bucket: the worker time it may take (its time cap, and
     * the last round started before it: seven searches, two a placement and one for the round) in public searches'
     * time caps, at most the burst. With today's values (1.5 s, 100 ms, 250 ms) 9. Counted as one, an analysis held
     * a worker about nine times as long as a search for the same share of the client's rate.
     */
    int analysisRequests() {
        return analysisRequests(config.analyse().timeCap(), config.analyse().solveTime(),
                config.publicCallers().timeCap(), config.publicCallers().burst());
    }

    /** {@link #analysisRequests()} of these settings: an analysis's worker time in public searches' time caps. */
    static int analysisRequests(Duration analysisCap, Duration solveTime, Duration searchCap, int burst) {
        long workerMs = analysisCap.toMillis() + 7 * solveTime.toMillis();
        long searchMs = Math.max(1, searchCap.toMillis());
        long requests = (workerMs + searchMs - 1) / searchMs;
        return (int) Math.max(1, Math.min(requests, burst)); // more could never be admitted
    }

    private static Response badRequest(Throwable e) {
        return Problem.of(Response.Status.BAD_REQUEST, e.getMessage()).toResponse().build();
    }

    private static int intParam(String name, String value, int absent, int min, int max) {
        if (value == null || value.isEmpty()) {
            return absent;
        }
        try {
            int v = Integer.parseInt(value);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max);
    }

    /** A service, by its token's role; anyone else (no token, a player's) is a public caller. */
    private CallerKind callerKind() {
        return !identity.isAnonymous() && identity.hasRole(config.serviceRole()) ? CallerKind.SERVICE
                : CallerKind.PUBLIC;
    }

    /**
     * A full share: 429 to a public caller; 503 to a service caller, whose client picks replicas with Stork's least
     * response time, which scores a 5xx as the replica's failure but any other answer as a reply, a 429 as a quick one:
     * its retries went back to the saturated replica, the fastest to answer, while another stood idle.
     */
    @ServerExceptionMapper
    public Response saturated(SaturatedException e) {
        long retryAfter = Math.max(1, config.retryAfter().toSeconds());
        if (callerKind() == CallerKind.SERVICE) {
            return Problem.of(Response.Status.SERVICE_UNAVAILABLE, e.getMessage()).toResponse()
                    .header("Retry-After", retryAfter).build();
        }
        return tooMany(e.getMessage(), retryAfter);
    }

    @ServerExceptionMapper
    public Response rateLimited(RateLimitedException e) {
        return tooMany(e.getMessage(), e.retryAfterSeconds());
    }

    private static Response tooMany(String detail, long retryAfterSeconds) {
        return Problem.of(Response.Status.TOO_MANY_REQUESTS, detail).toResponse()
                .header("Retry-After", retryAfterSeconds)
                .build();
    }

    /** The mode for the metrics: the request's if valid, "invalid" otherwise (a bounded set of tag values). */
    private static String modeTag(JsonNode node) {
        if (node == null || !node.isObject()) {
            return "invalid";
        }
        JsonNode mode = node.get("mode");
        if (mode == null || mode.isNull()) {
            return Mode.AI.wire();
        }
        try {
            return Mode.parse(mode.asText()).wire();
        } catch (IllegalArgumentException e) {
            return "invalid";
        }
    }

    /** Players by token subject, anonymous callers by address. */
    private String clientKey(HttpServerRequest http) {
        return ClientKey.of(identity, http);
    }
}
