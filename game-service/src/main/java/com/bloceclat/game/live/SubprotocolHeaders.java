package com.bloceclat.game.live;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.Response;

import com.bloceclat.common.rest.Problem;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;

/**
 * Browsers cannot set headers on a WebSocket, so a match socket's client sends its credentials as subprotocols
 * ({@code quarkus-http-upgrade#Authorization#Bearer ...}, {@code quarkus-http-upgrade#X-Game-Token#...}), which Quarkus
 * turns into request headers before the upgrade ({@code propagate-subprotocol-headers}). It turns any name into a
 * header, appended after the ones the request came with: an {@code X-Forwarded-For} sent that way came after the
 * trusted proxy's line and was read as the client's address, so one guest could be any number of clients and pass the
 * per-client socket limit. Here, before that propagation, a request whose subprotocols carry any other header is
 * refused with 400: only those two credentials may travel this way.
 */
@ApplicationScoped
public class SubprotocolHeaders {

    /** Before Quarkus's propagation (220), after CORS (300). */
    static final int PRIORITY = 250;

    private static final String PREFIX = "quarkus-http-upgrade";

    /** The headers a subprotocol may carry, in lower case. */
    static final Set<String> ALLOWED = Set.of("authorization", "x-game-token");

    void register(@Observes Filters filters, ObjectMapper json) throws JsonProcessingException {
        Buffer refusal = Buffer.buffer(json.writeValueAsBytes(Problem.of(Response.Status.BAD_REQUEST,
                "A socket's subprotocols may carry only the Authorization and X-Game-Token headers.")));
        filters.register(rc -> {
            for (String line : rc.request().headers().getAll("Sec-WebSocket-Protocol")) {
                if (!allowed(line)) {
                    rc.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                            .end(refusal);
                    return;
                }
            }
            rc.next();
        }, PRIORITY);
    }

    /** Whether every header the subprotocols of one {@code Sec-WebSocket-Protocol} line carry is allowed. */
    static boolean allowed(String line) {
        for (String protocol : line.split(",")) {
            String p = protocol.trim();
            if (!p.startsWith(PREFIX)) {
                continue;
            }
            String decoded;
            try {
                decoded = URLDecoder.decode(p, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return false;
            }
            String[] parts = decoded.split("#");
            // name and value, as Quarkus reads them (any other count is its 500): the name exactly one of two
            if (parts.length != 3 || !ALLOWED.contains(parts[1].toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        return true;
    }
}
