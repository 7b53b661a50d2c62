package com.bloceclat.common.rest;

import java.util.Comparator;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.bloceclat.common.db.DatabaseFaults;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;

/** Every error a service answers carries a {@link Problem} body. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        if (e.getResponse().getStatus() == 400 && e.getCause() instanceof JsonProcessingException json) {
            // Quarkus REST reports a body it cannot read as a bare "HTTP 400 Bad Request" whose cause says why
            return Problem.of(Response.Status.BAD_REQUEST, BodyErrors.detail(json)).toResponse().build();
        }
        Response original = e.getResponse();
        Response.StatusType status = original.getStatusInfo();
        String detail = e.getMessage() == null || e.getMessage().isBlank() ? status.getReasonPhrase() : e.getMessage();
        Response.ResponseBuilder builder = Problem.of(status, detail).toResponse();
        original.getHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type")) {
                values.forEach(value -> builder.header(name, value));
            }
        });
        return builder.build();
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        String detail = e.getConstraintViolations().stream()
                .sorted(Comparator.comparing((ConstraintViolation<?> v) -> v.getPropertyPath().toString()))
                .map(v -> fieldOf(v) + ": " + v.getMessage())
                .collect(Collectors.joining("; "));
        return Problem.of(Response.Status.BAD_REQUEST, detail).toResponse().build();
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonProcessingException e) {
        return Problem.of(Response.Status.BAD_REQUEST, BodyErrors.detail(e)).toResponse().build();
    }

    /**
     * A body of the wrong shape (a field of the wrong kind, an unknown field, not an object): ahead of Quarkus's own
     * mapper of this exception, which answered with a JSON body of its own, or none, not a problem.
     */
    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response mismatched(MismatchedInputException e) {
        return Problem.of(Response.Status.BAD_REQUEST, BodyErrors.detail(e)).toResponse().build();
    }

    /**
     * A bearer token that did not pass (bad signature, expired, or refused by {@code TokenPolicy}): 401 with the
     * bearer challenge. The detail does not say which check failed; the service's log does, at DEBUG.
     */
    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e) {
        return Problem.of(Response.Status.UNAUTHORIZED,
                "The bearer token is not accepted: an access token issued to this system's clients is needed.")
                .toResponse().header("WWW-Authenticate", "Bearer").build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return Problem.of(Response.Status.FORBIDDEN, "This needs a role the caller does not have.")
                .toResponse().build();
    }

    /**
     * An error with the database unreachable somewhere in its causes (see {@link #databaseUnavailable}) is the
     * platform's, not the request's: 503 with {@code Retry-After}, logged as a warning without its stack. A unique key
     * the commit found taken is a race with another request that wrote it first: 409 (it was a 500), logged as an
     * error with its stack (a key met at every try is a bug). Any other unexpected error is a 500, logged with its stack.
     */
    @ServerExceptionMapper
    public Response unexpected(RuntimeException e) {
        Problem problem = unexpectedProblem(e);
        Response.ResponseBuilder response = problem.toResponse();
        if (problem.status() == Response.Status.SERVICE_UNAVAILABLE.getStatusCode()) {
            response.header("Retry-After", DATABASE_RETRY_AFTER_SECONDS);
        }
        return response.build();
    }

    /**
     * What {@link #unexpected} answers {@code e} with, logged as it says: one rule for a REST call and a match socket's
     * error frame (game-service's {@code MatchSocket}), which answer the same failure alike.
     */
    public static Problem unexpectedProblem(RuntimeException e) {
        String database = databaseUnavailable(e);
        if (database != null) {
            LOG.warnf("Database unavailable, answered 503: %s", database);
            return Problem.of(Response.Status.SERVICE_UNAVAILABLE,
                    "The database is unavailable or busy; try again shortly.");
        }
        String taken = DatabaseFaults.uniqueViolation(e);
        if (taken != null) {
            // logged as an error, with its stack: a race is rare, and the same key met again and again is a bug
            LOG.errorf(e, "A unique key taken by another request at the same moment, answered 409: %s", taken);
            return Problem.of(Response.Status.CONFLICT,
                    "Another request changed the same data at the same moment; look again and retry.");
        }
        LOG.error("Unexpected error", e);
        return Problem.of(Response.Status.INTERNAL_SERVER_ERROR, "An unexpected error occurred.");
    }

    /** Seconds a caller is told to wait when the database is unavailable. */
    public static final int DATABASE_RETRY_AFTER_SECONDS = 5;

    /**
     * What says the database is away or busy, among {@code e} and its causes, or null ({@link DatabaseFaults}: the
     * same rule as the Kafka consumers' retries).
     */
    public static String databaseUnavailable(Throwable e) {
        return DatabaseFaults.transientCause(e);
    }

    /** The last node of the path ("create.arg0.level" → "level"), which is what a caller named. */
    private static String fieldOf(ConstraintViolation<?> violation) {
        String path = violation.getPropertyPath().toString();
        return path.substring(path.lastIndexOf('.') + 1);
    }
}
