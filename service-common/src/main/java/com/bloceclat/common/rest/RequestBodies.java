package com.bloceclat.common.rest;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.bloceclat.common.limits.CountsPerKey;
import com.bloceclat.common.security.ClientKey;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.impl.RoutingContextInternal;

/**
 * How a request's body is read, in every service.
 *
 * <ul>
 * <li>A body whose {@code Content-Length} is past {@code quarkus.http.limits.max-body-size} is refused with 413 before
 * it is read, as Quarkus does, but with a problem body like every other error (Quarkus's own 413 has none). A body sent
 * in chunks without a length is cut off with the same 413 once it goes past the limit.</li>
 * <li>A body within the limit is read in full on the I/O thread, after authentication and before a worker thread takes
 * the request. Quarkus REST reads a blocking endpoint's body on its worker thread, blocking: a client that stalled
 * mid-body held the thread until the read timed out (60 s), so a few hundred such uploads held every worker thread and
 * every request they serve waited. A stalled body now holds only its connection and what has come of it, until its
 * deadline (below).</li>
 * <li>The bodies held at once, from the start of their reading to the end of their request's answer (or its
 * connection's close), are at most {@code bloc.http.bodies-held} bytes in all and
 * {@code bloc.http.bodies-held-per-client} bytes of one client ({@link ClientKey}: a player or service by token, anyone
 * else by address), each counted at its {@code Content-Length} (the body limit when it comes in chunks). A request
 * whose body would go past the client's share is refused with 429, past the whole with 503, each with a problem body
 * and {@code Retry-After}, before any of it is read: read in full on the I/O thread, many large bodies at once
 * (solver-service's replays, up to 256K each) could fill the heap, where worker threads bounded them before, and one
 * client's stalled uploads could hold the whole. A caller with the role
 * {@code bloc.http.service-role} (the services' own calls) is counted in its share only, so that others' uploads never
 * refuse it. Counted in {@code http_request_bodies_held_bytes} and
 * {@code http_request_bodies_refused_total{reason="client"|"all"}}.</li>
 * <li>A body must have come in full within {@code bloc.http.body-timeout} (30 s) of the start of its reading: past it
 * the request is reset (for HTTP/1.1, its connection closed) and what it held given back. Without it a stalled body
 * held its share until the connection's idle timeout, 30 minutes.</li>
 * </ul>
 * All of this is for HTTP/1.1, the one version the services speak ({@code quarkus.http.http2=false} in each).
 */
@ApplicationScoped
public class RequestBodies {

    /** After authentication (200) and the HTTP permissions (100): a request refused there is not read. */
    static final int READ_PRIORITY = SecurityHandlerPriorities.AUTHORIZATION / 2;

    @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K")
    MemorySize limit;

    /** The bytes of request bodies held at once (above); at least the body limit, so that any body may be read. */
    @ConfigProperty(name = "bloc.http.bodies-held", defaultValue = "32M")
    MemorySize held;

    /** One client's share of them (above); at least the body limit too. */
    @ConfigProperty(name = "bloc.http.bodies-held-per-client", defaultValue = "4M")
    MemorySize heldPerClient;

    /** The role of the services' own callers, counted in their share only (above). */
    @ConfigProperty(name = "bloc.http.service-role", defaultValue = "service")
    String serviceRole;

    /** How long a body may take to come in full (above). */
    @ConfigProperty(name = "bloc.http.body-timeout", defaultValue = "30s")
    Duration bodyTimeout;

    @Inject
    MeterRegistry registry;

    void register(@Observes Router router) {
        long most = limit.asLongValue();
        String body = Json.encode(new Problem(413, "Request Entity Too Large", "The body is larger than this "
                + "service reads: at most " + most + " bytes (quarkus.http.limits.max-body-size)."));
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length != null && tooLong(length, most)) {
                tooLarge(ctx, body);
            } else {
                ctx.next();
            }
        }).failureHandler(ctx -> {
            // the body handler's refusal of a chunked body past the limit
            if (ctx.statusCode() == 413 && !ctx.response().ended()) {
                tooLarge(ctx, body);
            } else {
                ctx.next();
            }
        });
    }

    void read(@Observes Filters filters) {
        long most = limit.asLongValue();
        BodyHandler read = BodyHandler.create(false).setBodyLimit(most);
        long timeout = Math.max(1, bodyTimeout.toMillis());
        int budget = (int) Math.min(Integer.MAX_VALUE, Math.max(most, held.asLongValue()));
        int share = (int) Math.min(budget, Math.max(most, heldPerClient.asLongValue()));
        Semaphore free = new Semaphore(budget);
        CountsPerKey<String> clients = new CountsPerKey<>();
        Gauge.builder("http.request.bodies.held", free, f -> budget - f.availablePermits()).baseUnit("bytes")
                .description("Bytes of request bodies held by requests in progress, counted at their length")
                .register(registry);
        Counter clientFull = refusals("client");
        Counter allFull = refusals("all");
        String yours = Json.encode(new Problem(429, "Too Many Requests", "This client's requests hold as many bytes "
                + "of bodies as one client may at once (bloc.http.bodies-held-per-client); try again in a second."));
        String busy = Json.encode(new Problem(503, "Service Unavailable", "This service holds as many request bodies "
                + "as it reads at once (bloc.http.bodies-held); try again in a second."));
        filters.register(ctx -> {
            // A request with no body (neither a length nor chunks), or already ended, has nothing to read (the body
            // handler would wait for good on one ended); nor one whose connection has closed meanwhile (its end
            // handlers, which give back what it holds, would never run). HTTP/2 is left to Quarkus: the services do
            // not speak it (quarkus.http.http2=false), and the body handler failed on a request upgraded to it (h2c),
            // whose body Vert.x had read already (a 500, "Request has already been read").
            HttpServerRequest request = ctx.request();
            if (!carriesBody(request.method()) || request.isEnded() || ctx.response().closed()
                    || request.version() == HttpVersion.HTTP_2
                    || !request.headers().contains(HttpHeaders.CONTENT_LENGTH)
                    && !request.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
                ctx.next();
                return;
            }
            int bytes = (int) Math.min(budget, declared(request.getHeader(HttpHeaders.CONTENT_LENGTH), most));
            String client = ClientKey.of(ctx);
            boolean service = ctx.user() instanceof QuarkusHttpUser user
                    && user.getSecurityIdentity().hasRole(serviceRole);
            if (!clients.tryAdd(client, bytes, share)) {
                clientFull.increment();
                refuse(ctx, 429, yours);
                return;
            }
            if (!service && !free.tryAcquire(bytes)) {
                clients.remove(client, bytes);
                allFull.increment();
                refuse(ctx, 503, busy);
                return;
            }
            AtomicBoolean held = new AtomicBoolean(true);
            Runnable giveBack = () -> {
                if (held.getAndSet(false)) {
                    if (!service) {
                        free.release(bytes);
                    }
                    clients.remove(client, bytes);
                }
            };
            // A body not in by its deadline: the request reset (HTTP/1.1: its connection closed). What it held is
            // given back here, since a reset runs none of the request's end handlers. Once the body is in, the timer
            // finds the request ended and does nothing.
            long deadline = ctx.vertx().setTimer(timeout, id -> {
                if (!request.isEnded()) {
                    giveBack.run();
                    ctx.response().reset();
                }
            });
            // when the answer has gone, or the connection closed first
            ctx.addEndHandler(ended -> {
                ctx.vertx().cancelTimer(deadline);
                giveBack.run();
            });
            read.handle(ctx);
        }, READ_PRIORITY);
        filters.register(ctx -> {
            // The body handler leaves an empty body as none at all, and Quarkus REST then waits on the request for a
            // body that has already ended (a chunked body of no chunks hung): an empty body is one of no bytes.
            if (carriesBody(ctx.request().method()) && ctx.body().buffer() == null && ctx.request().isEnded()
                    && ctx instanceof RoutingContextInternal internal) {
                internal.setBody(Buffer.buffer());
            }
            ctx.next();
        }, READ_PRIORITY - 1);
    }

    private Counter refusals(String reason) {
        return Counter.builder("http.request.bodies.refused").tag("reason", reason)
                .description("Requests refused before their body was read: it would have gone past the bytes of "
                        + "bodies held at once by the client (429) or the service (503)")
                .register(registry);
    }

    /** Refuses a body before it is read; the connection stays open, for the requests after it. */
    private static void refuse(RoutingContext ctx, int status, String problem) {
        ctx.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .putHeader("Retry-After", "1").end(problem);
    }

    private static boolean carriesBody(HttpMethod method) {
        return method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH
                || method == HttpMethod.DELETE;
    }

    /**
     * Refuses a body too large, then closes an HTTP/1.1 connection as Quarkus's own 413 does: the rest of the body would
     * otherwise be read and thrown away (a header saying so closes nothing, and HTTP/2 forbids it).
     */
    private static void tooLarge(RoutingContext ctx, String body) {
        HttpServerRequest request = ctx.request();
        ctx.response().setStatusCode(413).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE).end(body)
                .onComplete(sent -> {
                    if (request.version() != HttpVersion.HTTP_2 && request.connection() != null) {
                        request.connection().close();
                    }
                });
    }

    private static boolean tooLong(String length, long most) {
        return declared(length, most) > most;
    }

    /** A body's length as its request declares it; the body limit when it declares none (chunks) or a malformed one. */
    private static long declared(String length, long most) {
        if (length == null) {
            return most;
        }
        try {
            long declared = Long.parseLong(length.trim());
            return declared < 0 ? most : declared;
        } catch (NumberFormatException e) {
            return most; // the HTTP server refuses a malformed length itself
        }
    }
}
