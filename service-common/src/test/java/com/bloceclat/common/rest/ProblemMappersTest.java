package com.bloceclat.common.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;

import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

class ProblemMappersTest {

    final ProblemMappers mappers = new ProblemMappers();

    record Request(@NotBlank String name, @Max(5) int strength) {
    }

    @Test
    void webApplicationErrorKeepsItsStatusMessageAndHeaders() {
        Response original = Response.status(429).header("Retry-After", "2").type("text/plain").build();
        Response response = mappers.webApplication(new WebApplicationException("Too busy, retry", original));
        assertEquals(429, response.getStatus());
        assertEquals(Problem.MEDIA_TYPE, response.getMediaType().toString());
        assertEquals("2", response.getHeaderString("Retry-After"));
        assertEquals(new Problem(429, "Too Many Requests", "Too busy, retry"), response.getEntity());
    }

    /** A detail quoting a client's value of a million characters answered with all of them before. */
    @Test
    void aDetailPastTheLongestIsCutAndSaysHowLongItWas() {
        String level = "A".repeat(1_000_000);
        Response response = mappers.webApplication(new WebApplicationException("level: unknown level \"" + level
                + "\"", Response.status(400).build()));
        String detail = ((Problem) response.getEntity()).detail();
        assertEquals(Problem.MAX_DETAIL, detail.indexOf('…'), detail.substring(0, 40));
        int length = ("level: unknown level \"" + level + "\"").length();
        assertTrue(detail.endsWith("… (cut: " + length + " characters)"), detail.substring(Problem.MAX_DETAIL));
        assertEquals("short", new Problem(400, "Bad Request", "short").detail());
        assertEquals(Problem.MAX_DETAIL, new Problem(400, "Bad Request", "x".repeat(Problem.MAX_DETAIL)).detail()
                .length(), "a detail of the longest length is whole");
    }

    @Test
    void webApplicationErrorWithoutMessageSaysItsReason() {
        Response response = mappers.webApplication(new WebApplicationException(Response.status(404).build()));
        Problem problem = (Problem) response.getEntity();
        assertEquals(404, problem.status());
        assertEquals("Not Found", problem.title());
        assertEquals("HTTP 404 Not Found", problem.detail());
    }

    @Test
    void constraintViolationsNameEachFieldInOrder() {
        try (ValidatorFactory factory = Validation.byDefaultProvider().configure()
                .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory()) {
            Validator validator = factory.getValidator();
            var violations = validator.validate(new Request(" ", 9));
            Response response = mappers.constraintViolation(new ConstraintViolationException(violations));
            assertEquals(400, response.getStatus());
            assertEquals(new Problem(400, "Bad Request", "name: must not be blank; strength: must be less than or equal to 5"),
                    response.getEntity());
        }
    }

    @Test
    void malformedJsonIsABadRequestThatSaysWhy() {
        JsonProcessingException e = null;
        try {
            new ObjectMapper().readTree("{\"level\": ");
        } catch (JsonProcessingException thrown) {
            e = thrown;
        }
        Response response = mappers.malformedJson(e);
        Problem problem = (Problem) response.getEntity();
        assertEquals(400, problem.status());
        assertTrue(problem.detail().startsWith("Malformed JSON: Unexpected end-of-input"), problem.detail());
    }

    @Test
    void unexpectedErrorsHideTheirInternals() {
        Response response = mappers.unexpected(new IllegalStateException("secret table name"));
        assertEquals(new Problem(500, "Internal Server Error", "An unexpected error occurred."), response.getEntity());
        assertNull(response.getHeaderString("Retry-After"));
    }

    @Test
    void aDatabaseOutOfReachAnywhereInTheCausesIs503WithRetryAfterNot500() {
        // what PostgreSQL's driver throws when the server is down (08001) or the connection broke (08006), as
        // Hibernate and the transaction wrap it; and Agroal's acquisition timeout
        RuntimeException refused = new IllegalStateException("transaction failed", new RuntimeException(
                "org.hibernate.exception.JDBCConnectionException: unable to obtain isolated JDBC connection",
                new SQLException("Connection to localhost:15432 refused.", "08001")));
        RuntimeException broken = new RuntimeException(new SQLException("An I/O error occurred", "08006"));
        RuntimeException timeout = new RuntimeException(
                new SQLException("Acquisition timeout while waiting for new connection"));
        RuntimeException transientConnection = new RuntimeException(new SQLTransientConnectionException("pool"));
        // a statement in flight when PostgreSQL is killed (found by the chaos stage: it was a 500)
        RuntimeException postmasterExit = new RuntimeException(
                new SQLException("FATAL: terminating connection due to unexpected postmaster exit", "57P01"));
        for (RuntimeException e : List.of(refused, broken, timeout, transientConnection, postmasterExit)) {
            Response response = mappers.unexpected(e);
            assertEquals(503, response.getStatus(), e.toString());
            assertEquals(Problem.MEDIA_TYPE, response.getMediaType().toString());
            assertEquals(String.valueOf(ProblemMappers.DATABASE_RETRY_AFTER_SECONDS),
                    response.getHeaderString("Retry-After"));
            assertEquals(new Problem(503, "Service Unavailable",
                    "The database is unavailable or busy; try again shortly."), response.getEntity());
        }
    }

    /**
     * A unique key the commit finds taken is a race with another request (two admins' re-validations giving one level
     * and seed its record at once): 409, saying so, not a 500.
     */
    @Test
    void aUniqueKeyTakenMeanwhileAnywhereInTheCausesIs409() {
        Response response = mappers.unexpected(new RuntimeException("commit failed", new RuntimeException(
                new SQLException("duplicate key value violates unique constraint \"game_record_one_per_seed\"",
                        "23505"))));
        assertEquals(409, response.getStatus());
        assertEquals(new Problem(409, "Conflict",
                "Another request changed the same data at the same moment; look again and retry."), response.getEntity());
    }

    @Test
    void otherDatabaseErrorsStayUnexpected() {
        // a value too long (22001), a foreign key (23503): a bug, not the database away nor a race
        Response response = mappers.unexpected(new RuntimeException(new SQLException("value too long", "22001")));
        assertEquals(500, response.getStatus());
        assertEquals(500, mappers.unexpected(new RuntimeException(new SQLException("fk", "23503"))).getStatus());
        assertNull(ProblemMappers.databaseUnavailable(new IllegalStateException("no cause")));
    }
}
