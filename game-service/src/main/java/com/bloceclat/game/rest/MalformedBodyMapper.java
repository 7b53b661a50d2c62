package com.bloceclat.game.rest;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.bloceclat.common.rest.Problem;
import com.bloceclat.common.rest.ProblemMappers;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * Quarkus REST reports a request body that is not JSON as a bare "HTTP 400 Bad Request" whose cause is Jackson's
 * parse error; this says what is wrong instead. Everything else goes to the shared {@link ProblemMappers}.
 */
public class MalformedBodyMapper {

    private final ProblemMappers shared = new ProblemMappers();

    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response webApplication(WebApplicationException e) {
        if (e.getResponse().getStatus() == 400 && e.getCause() instanceof JsonProcessingException json) {
            return Problem.of(Response.Status.BAD_REQUEST, "Malformed JSON: " + json.getOriginalMessage())
                    .toResponse().build();
        }
        return shared.webApplication(e);
    }
}
