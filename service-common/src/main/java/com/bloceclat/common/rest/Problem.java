package com.bloceclat.common.rest;

import jakarta.ws.rs.core.Response;

/**
 * An error body in the spirit of RFC 9457 ("problem details"), served as {@code application/problem+json}.
 */
public record Problem(int status, String title, String detail) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(Response.StatusType status, String detail) {
        return new Problem(status.getStatusCode(), status.getReasonPhrase(), detail);
    }

    public Response.ResponseBuilder toResponse() {
        return Response.status(status).type(MEDIA_TYPE).entity(this);
    }
}
