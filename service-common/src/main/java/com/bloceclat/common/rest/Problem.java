package com.bloceclat.common.rest;

import jakarta.ws.rs.core.Response;

/**
 * An error body in the spirit of RFC 9457 ("problem details"), served as {@code application/problem+json}.
 */
public record Problem(int status, String title, String detail) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /**
     * The longest detail served whole, in characters: what is longer (a detail quoting a client's value, such as a
     * level of a million characters) is cut there and says how long it was, so that no error answers a request with
     * as much as it was sent.
     */
    public static final int MAX_DETAIL = 1000;

    public Problem {
        detail = cut(detail);
    }

    /** {@code detail} whole up to {@link #MAX_DETAIL} characters, else cut there, saying how long it was. */
    public static String cut(String detail) {
        return detail != null && detail.length() > MAX_DETAIL
                ? detail.substring(0, MAX_DETAIL) + "… (cut: " + detail.length() + " characters)" : detail;
    }

    public static Problem of(Response.StatusType status, String detail) {
        return new Problem(status.getStatusCode(), status.getReasonPhrase(), detail);
    }

    public Response.ResponseBuilder toResponse() {
        return Response.status(status).type(MEDIA_TYPE).entity(this);
    }
}
