package com.bloceclat.solver.client;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

import com.fasterxml.jackson.databind.JsonNode;

/** Error answers of solver-service as exceptions: a bad request is the caller's, a busy replica is retried. */
public class SolverErrors implements ResponseExceptionMapper<RuntimeException> {

    @Override
    public RuntimeException toThrowable(Response response) {
        int status = response.getStatus();
        String detail = detail(response);
        if (status == 400) {
            return new SolverRequestException(detail);
        }
        if (status == 429 || status == 503) {
            return new SolverBusyException(status + " " + detail);
        }
        return new SolverUnavailableException("solver-service answered " + status + ": " + detail);
    }

    private static String detail(Response response) {
        try {
            MediaType type = response.getMediaType();
            if (type != null && type.getSubtype().endsWith("json")) {
                JsonNode body = response.readEntity(JsonNode.class);
                if (body != null && body.hasNonNull("detail")) {
                    return body.get("detail").asText();
                }
            }
        } catch (RuntimeException e) {
            // No readable problem body: the status says enough.
        }
        return response.getStatusInfo().getReasonPhrase();
    }
}
