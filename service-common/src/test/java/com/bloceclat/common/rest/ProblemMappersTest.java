package com.bloceclat.common.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
