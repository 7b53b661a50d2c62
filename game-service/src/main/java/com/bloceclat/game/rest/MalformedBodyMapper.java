package com.bloceclat.game.rest;

import java.util.Collection;
import java.util.stream.Collectors;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.bloceclat.common.rest.Problem;
import com.bloceclat.common.rest.ProblemMappers;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Quarkus REST reports a request body it cannot read as a bare "HTTP 400 Bad Request" whose cause is Jackson's error;
 * this says what is wrong instead, by field, without Jackson's text (which names the server's classes): a body that
 * is not JSON, a field the body does not have ({@link StrictJson}), a value of the wrong kind. Everything else goes to
 * the shared {@link ProblemMappers}.
 */
public class MalformedBodyMapper {

    private final ProblemMappers shared = new ProblemMappers();

    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response webApplication(WebApplicationException e) {
        if (e.getResponse().getStatus() == 400 && e.getCause() instanceof JsonProcessingException json) {
            return Problem.of(Response.Status.BAD_REQUEST, detail(json)).toResponse().build();
        }
        return shared.webApplication(e);
    }

    /**
     * A body of the wrong shape (a field of the wrong kind, an unknown field): Quarkus's own mapper answered it with a
     * JSON body of its own, not a problem.
     */
    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response mismatched(MismatchedInputException e) {
        return Problem.of(Response.Status.BAD_REQUEST, detail(e)).toResponse().build();
    }

    static String detail(JsonProcessingException json) {
        if (json instanceof UnrecognizedPropertyException unknown) {
            return "Unknown field \"" + shortened(unknown.getPropertyName()) + "\"" + known(unknown.getKnownPropertyIds());
        }
        if (json instanceof MismatchedInputException mismatched) {
            if (mismatched.getPath().isEmpty() || mismatched.getTargetType() == null) {
                // the body itself: an array, a number, a second value after the object (Jackson's words name classes)
                return "Malformed JSON: the body must be one JSON object";
            }
            return "Field \"" + shortened(field(mismatched)) + "\" " + expected(mismatched.getTargetType());
        }
        return "Malformed JSON: " + json.getOriginalMessage(); // a parse error: about the text, never the classes
    }

    /** A name as the client sent it, cut at 64 characters: a problem is no place to echo back 50,000. */
    private static String shortened(String name) {
        return name == null || name.length() <= 64 ? name : name.substring(0, 64) + "…";
    }

    private static String known(Collection<Object> ids) {
        return ids == null || ids.isEmpty() ? ""
                : ": the body takes " + ids.stream().map(String::valueOf).sorted().collect(Collectors.joining(", "));
    }

    private static String field(MismatchedInputException e) {
        return e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String expected(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            return "must be a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "must be true or false";
        }
        if (type == String.class) {
            return "must be text";
        }
        return "has the wrong kind of value";
    }
}
