package com.bloceclat.common.rest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;

/**
 * A request whose {@code Content-Length} is past {@code quarkus.http.limits.max-body-size} is refused before its body
 * is read, as Quarkus does, but with a problem body like every other error (Quarkus's own 413 has none). A body sent in
 * chunks without a length that goes past the limit is still cut off by Quarkus with its bare 413.
 */
@ApplicationScoped
public class TooLargeBodies {

    @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K")
    MemorySize limit;

    void register(@Observes Router router) {
        long most = limit.asLongValue();
        String body = Json.encode(new Problem(413, "Request Entity Too Large", "The body is larger than this "
                + "service reads: at most " + most + " bytes (quarkus.http.limits.max-body-size)."));
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length != null && tooLong(length, most)) {
                ctx.response().setStatusCode(413).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                        .putHeader(HttpHeaders.CONNECTION, "close").end(body);
            } else {
                ctx.next();
            }
        });
    }

    private static boolean tooLong(String length, long most) {
        try {
            return Long.parseLong(length.trim()) > most;
        } catch (NumberFormatException e) {
            return false; // the HTTP server refuses a malformed length itself
        }
    }
}
